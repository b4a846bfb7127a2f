// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lore-fetch: a driver for end-to-end tests of tools/lib/lore.c until
 * `respin thread lore:MSGID` exists.
 *
 *   lore-fetch [options] BASE_URL MSGID
 *
 * prints the thread (or with --raw the message) to stdout.  Options:
 *   --raw                 BASE/MSGID/raw instead of BASE/MSGID/t.mbox.gz
 *   --refresh             ask the server even when the cache has it
 *   --cache=DIR           cache directory (default: lore_cache_dir())
 *   --no-cache            no cache at all
 *   --timeout=MS          each try
 *   --deadline=MS         the whole request, tries and redirects (0: none)
 *   --connect-timeout=MS
 *   --low-speed-time=S    give up after S seconds below 100 bytes/s
 *   --tries=N, --backoff=MS
 * Exit codes: 0, 128 (the message on stderr), 129 usage.
 */
#include "tools/lib/error.h"
#include "tools/lib/http.h"
#include "tools/lib/lore.h"
#include "tools/lib/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int opt_num(const char *arg, const char *name, long *out)
{
	size_t n = strlen(name);
	char *end;

	if (strncmp(arg, name, n) || arg[n] != '=')
		return 0;
	*out = strtol(arg + n + 1, &end, 10);
	if (!arg[n + 1] || *end || *out < 0) {
		fprintf(stderr, "error: %s needs a number\n", name);
		exit(RESPIN_EXIT_USAGE);
	}
	return 1;
}

int main(int argc, char **argv)
{
	struct http_config cfg = *http_config_get();
	struct strbuf cache = STRBUF_INIT, out = STRBUF_INIT;
	const char *cache_dir = NULL;
	unsigned flags = 0;
	int raw = 0, no_cache = 0, i, ret;
	long n;

	for (i = 1; i < argc && !strncmp(argv[i], "--", 2); i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (!strcmp(a, "--raw")) {
			raw = 1;
		} else if (!strcmp(a, "--refresh")) {
			flags |= LORE_REFRESH;
		} else if (!strcmp(a, "--no-cache")) {
			no_cache = 1;
		} else if (!strncmp(a, "--cache=", 8)) {
			cache_dir = a + 8;
		} else if (opt_num(a, "--timeout", &n)) {
			cfg.timeout_ms = n;
		} else if (opt_num(a, "--deadline", &n)) {
			cfg.deadline_ms = n;
		} else if (opt_num(a, "--connect-timeout", &n)) {
			cfg.connect_timeout_ms = n;
		} else if (opt_num(a, "--low-speed-time", &n)) {
			cfg.low_speed_time = n;
		} else if (opt_num(a, "--tries", &n)) {
			cfg.tries = n;
		} else if (opt_num(a, "--backoff", &n)) {
			cfg.backoff_ms = n;
		} else {
			fprintf(stderr, "error: unknown option '%s'\n", a);
			return RESPIN_EXIT_USAGE;
		}
	}
	if (argc - i != 2) {
		fprintf(stderr, "usage: lore-fetch [options] BASE_URL MSGID\n");
		return RESPIN_EXIT_USAGE;
	}
	http_configure(&cfg);
	if (!no_cache && !cache_dir) {
		ret = lore_cache_dir(&cache);
		if (ret)
			return error_report(ret);
		cache_dir = cache.buf;
	}

	if (raw)
		ret = lore_raw_fetch(argv[i], argv[i + 1], cache_dir, flags,
				     &out);
	else
		ret = lore_thread_fetch(argv[i], argv[i + 1], cache_dir, flags,
					&out);
	if (!ret && (fwrite(out.buf, 1, out.len, stdout) != out.len ||
		     fflush(stdout))) {
		perror("lore-fetch: write error");
		ret = RESPIN_EXIT_FATAL;
	} else {
		ret = error_report(ret);
	}
	strbuf_release(&out);
	strbuf_release(&cache);
	return ret;
}
