/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_FUZZ_H
#define RESPIN_FUZZ_H

/*
 * The fuzz targets (tests/fuzz/fuzz-NAME.c) are written once and built
 * two ways:
 *
 * - with FUZZ_LIBFUZZER defined (make fuzz-build): FUZZ_TARGET(NAME)
 *   also defines libFuzzer's entry point, LLVMFuzzerTestOneInput(),
 *   which calls fuzz_NAME();
 * - without it (tests/unit/t-regress.c #includes every target): only
 *   fuzz_NAME() is defined, so the stored crash inputs of
 *   tests/fuzz/regress/NAME/ go through the very same calls under the
 *   normal and the ASan build.
 *
 * A target returns 0; it must free everything it allocates (LeakSanitizer
 * runs after every input) and give the same result for the same input.
 * Helpers in a target file are static and carry its name as a prefix,
 * since t-regress.c puts every target into one file.
 */
#include <stddef.h>
#include <stdint.h>
#include <git2.h>
#include <stdlib.h>

#include "tools/lib/jsonread.h"

/* libgit2 set up once and kept (its globals stay reachable: no leak) */
static inline void fuzz_git_init(void)
{
	static int done;

	if (!done) {
		git_libgit2_init();
		done = 1;
	}
}

/* A split patch's diff through libgit2 and its patch-id, as load_part does. */
static inline void fuzz_patch_id(const char *diff_text, size_t len)
{
	git_diff *diff = NULL;
	git_oid id;

	if (!git_diff_from_buffer(&diff, diff_text, len))
		git_diff_patchid(&id, diff, NULL);
	git_diff_free(diff);
}

/*
 * The JSON a writer made must read back (what results store is read
 * again): abort() when json_read() (strict json-c) refuses it.
 */
static inline void fuzz_json_check(const char *buf, size_t len)
{
	struct json_object *v;

	if (json_read(buf, len, &v) < 0)
		abort();
	json_read_free(v);
}

#ifdef FUZZ_LIBFUZZER
#define FUZZ_TARGET(name)						\
	int fuzz_##name(const uint8_t *data, size_t size);		\
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);	\
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)	\
	{								\
		return fuzz_##name(data, size);				\
	}								\
	int fuzz_##name(const uint8_t *data, size_t size)
#else
#define FUZZ_TARGET(name)						\
	int fuzz_##name(const uint8_t *data, size_t size);		\
	int fuzz_##name(const uint8_t *data, size_t size)
#endif

#endif
