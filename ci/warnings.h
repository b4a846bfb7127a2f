/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_WARNINGS_H
#define RESPIN_CI_WARNINGS_H

#include <stddef.h>
#include "tools/lib/strbuf.h"

/*
 * Compiler warnings of a build, compared without line numbers:
 * "mm/compaction.c:123:5: warning: unused variable 'x' [-Wunused-variable]"
 * becomes "mm/compaction.c: warning: unused variable 'x' [-Wunused-variable]".
 *
 * A build in a persistent O= directory recompiles only what changed,
 * so a build's output does not repeat the warnings of files it did not
 * compile.  warnings_carry() makes the full set after patch i from the
 * set after patch i-1: old warnings stay unless their file was
 * compiled again or changed by the patch; new ones are added.
 */
struct warning_set {
	char **items;		/* sorted, unique */
	size_t nr, alloc;
};

void warning_set_release(struct warning_set *ws);
/*
 * Adds the warnings in build output text; units gets the compiled
 * files.  Paths are made relative to the tree: build_dir/ and src_dir/
 * prefixes (kbuild prints sources absolute under O=) are dropped.
 */
void warnings_parse(struct warning_set *ws, struct warning_set *units,
		    const char *text, size_t len, const char *build_dir,
		    const char *src_dir);
/*
 * Adds the findings of a static analyser (sparse, gcc, kernel-doc,
 * Coccinelle), in any of their forms:
 *	FILE:LINE[:COL]: warning|error|WARNING|ERROR|INFO: MESSAGE
 *	FILE:LINE:COL-COL: MESSAGE	(Coccinelle's report mode)
 * as "FILE: MESSAGE" (no line: a finding that moves is the same; "line
 * 388" inside the message becomes "line N" for the same reason), FILE
 * relative to the tree as warnings_parse() makes it.  Other lines
 * (notes, continuations, spatch's own warnings) are not findings.
 */
void findings_parse(struct warning_set *ws, const char *text, size_t len,
		    const char *build_dir, const char *src_dir);
void warning_set_add(struct warning_set *ws, const char *w);
int warning_set_has(const struct warning_set *ws, const char *w);
/* The file a normalised warning is in. */
void warning_file(struct strbuf *out, const char *w);
/*
 * out = (prev minus warnings in a file of units or changed) plus now.
 * changed is a list of paths, one per line.
 */
void warnings_carry(struct warning_set *out, const struct warning_set *prev,
		    const struct warning_set *now,
		    const struct warning_set *units, const char *changed);
/* One warning a line; and back. */
void warning_set_format(const struct warning_set *ws, struct strbuf *out);
void warning_set_parse_lines(struct warning_set *ws, const char *text);

struct json;
/* "key": [ "warning", ... ] inside a JSON object. */
void warning_set_json(struct json *j, const char *key,
		      const struct warning_set *ws);

#endif
