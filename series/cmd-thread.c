// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin thread SOURCE [MSGID] [--json] [--refresh] [--search] [-v]
 *
 * What is in a thread or a mailbox: series, versions, patches, replies
 * per patch and trailers per patch.
 */
#include "series/thread.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const usage[] = {
	"respin thread <source> [<msgid>] [--json] [--refresh] [--search] [-v]",
	"  <source>: an mbox, a maildir, -, lore:<msgid>, notmuch:<query>",
	NULL
};

int cmd_thread(int argc, const char **argv, struct command_context *ctx)
{
	int json = 0, refresh = 0, verbose = 0, search = 0, exit_code, n, r;
	struct option opts[] = {
		OPT_BOOL(0, "json", &json, "print JSON"),
		OPT_BOOL(0, "refresh", &refresh,
			 "fetch lore: threads and searches again, ignoring "
			 "the cache"),
		OPT_BOOL(0, "search", &search,
			 "with lore:MSGID, also find the series' other "
			 "versions with the server's search"),
		OPT_BOOL('v', "verbose", &verbose,
			 "with a Message-ID, notes about other series too"),
		OPT_END()
	};
	struct mail_thread_opts to = { 0 };
	struct mail_thread t;
	struct strbuf out = STRBUF_INIT, notes = STRBUF_INIT;
	const char *want = NULL;
	size_t other;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n < 1 || n > 2)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which mail? give an mbox, a "
					   "maildir, lore:MSGID or notmuch:QUERY");
	if (search && strncmp(argv[0], "lore:", 5))
		return command_usage_error(opts, usage, "--search needs a "
					   "lore:MSGID source");
	if (n == 2)
		want = argv[1];
	else if (!strncmp(argv[0], "lore:", 5))
		want = argv[0] + 5;

	to.refresh = refresh;
	to.search = search;
	to.patch_ids = 1;
	to.load = 1;
	if (ctx->stderr_is_tty)
		to.progress = command_progress;
	r = mail_thread_open(ctx->repo, argv[0], want, &to, &t);
	if (r < 0) {
		r = error_report(r);
	} else if (json) {
		mail_thread_json(&t, verbose, &out);
	} else {
		mail_thread_text(&t, &out);
		other = mail_thread_notes(&t, verbose, &notes);
		command_notes(notes.buf);
		if (other)
			fprintf(stderr, "note: %zu note%s about other series "
				"in %s; --verbose shows them\n", other,
				other == 1 ? "" : "s",
				term_safe(mail_source_describe(t.src)));
		command_notes(t.found.buf);
	}
	fwrite(out.buf, 1, out.len, stdout);
	mail_thread_release(&t);
	strbuf_release(&out);
	strbuf_release(&notes);
	return r;
}
