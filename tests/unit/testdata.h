/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_TESTDATA_H
#define RESPIN_TESTDATA_H

/*
 * Where the unit tests find their data.
 *
 * test_data_dir() is the checkout's tests/data (the small real mail,
 * see tests/data/README.md): $RESPIN_TEST_DATA when set, else found
 * from the binary (BUILD/tests/unit/t-NAME inside the checkout) or
 * from the current directory and its parents (make check runs in the
 * checkout).  NULL when it is nowhere: the caller fails.
 *
 * test_shared_dir() is the optional big data (the year of mail):
 * $RESPIN_SHARED/data (or $RESPIN_SHARED itself), else shared/data
 * beside the checkout.  It may not exist: callers skip, saying so.
 *
 * Both return static buffers.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TESTDATA_PROBE "mail/lru_gen-batch/v1.mbox"

static inline int testdata_exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

/* 1 and the real path of DIR in OUT when DIR holds the probe file. */
static inline int testdata_try(const char *dir, char *out, size_t size)
{
	char probe[PATH_MAX + 64], real[PATH_MAX];

	snprintf(probe, sizeof(probe), "%s/" TESTDATA_PROBE, dir);
	if (!testdata_exists(probe) || !realpath(dir, real))
		return 0;
	snprintf(out, size, "%s", real);
	return 1;
}

static inline const char *test_data_dir(void)
{
	static char found[PATH_MAX];
	static const char *const up[] = {
		"tests/data", "../tests/data", "../../tests/data",
		"../../../tests/data", "../../../../tests/data", NULL,
	};
	const char *env = getenv("RESPIN_TEST_DATA");
	char exe[PATH_MAX], dir[PATH_MAX + 32], *slash;
	ssize_t n;
	int i;

	if (found[0])
		return found;
	if (env && *env)
		return testdata_try(env, found, sizeof(found)) ? found : NULL;
	/* BUILD/tests/unit/t-NAME: three levels up is the checkout */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			for (i = 0; up[i]; i++) {
				snprintf(dir, sizeof(dir), "%s/%s", exe, up[i]);
				if (testdata_try(dir, found, sizeof(found)))
					return found;
			}
		}
	}
	for (i = 0; up[i]; i++)
		if (testdata_try(up[i], found, sizeof(found)))
			return found;
	return NULL;
}

static inline const char *test_shared_dir(void)
{
	static char found[PATH_MAX + 64];
	const char *env = getenv("RESPIN_SHARED");
	const char *data;

	if (env && *env) {
		snprintf(found, sizeof(found), "%s/data", env);
		if (!testdata_exists(found))
			snprintf(found, sizeof(found), "%s", env);
		return found;
	}
	data = test_data_dir();
	if (data) {
		/* CHECKOUT/tests/data -> (the checkout's parent)/shared/data */
		char parent[PATH_MAX], *slash;
		int i;

		snprintf(parent, sizeof(parent), "%s", data);
		for (i = 0; i < 3; i++) {
			slash = strrchr(parent, '/');
			if (!slash)
				break;
			*slash = '\0';
		}
		if (i == 3) {
			snprintf(found, sizeof(found), "%s/shared/data", parent);
			return found;
		}
	}
	return "../shared/data";
}

#endif
