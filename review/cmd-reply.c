// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin reply SOURCE MSGID [--results] [--ack|--review|--tested]
 *              [-o FILE | --maildir DIR]
 *
 * A reply draft to one message, never sent: printed, appended to an
 * mbox, or put into a maildir as a draft.
 */
#include "review/drafts.h"
#include "review/replydraft.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
	"respin reply <source> <msgid> [--results] [--ack | --review | --tested]",
	"             [-o <mbox> | --maildir <dir>]",
	NULL
};

int cmd_reply(int argc, const char **argv, struct command_context *ctx)
{
	int results = 0, ack = 0, review = 0, tested = 0, refresh = 0;
	const char *mbox = NULL, *maildir = NULL, *msgid;
	int exit_code, n, r;
	struct option opts[] = {
		OPT_BOOL(0, "results", &results,
			 "add the stored results of the patch replied to"),
		OPT_BOOL(0, "ack", &ack, "add Acked-by: you"),
		OPT_BOOL(0, "review", &review, "add Reviewed-by: you"),
		OPT_BOOL(0, "tested", &tested, "add Tested-by: you"),
		OPT_STRING('o', "output", &mbox, "mbox",
			   "append the draft to this mbox"),
		OPT_STRING(0, "maildir", &maildir, "dir",
			   "put the draft into this maildir (flagged draft)"),
		OPT_BOOL(0, "refresh", &refresh,
			 "fetch lore: threads again, ignoring the cache"),
		OPT_END()
	};
	struct reply_request rq = { 0 };
	struct strbuf draft = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf bare = STRBUF_INIT, id = STRBUF_INIT;
	char *name = NULL, *addr = NULL, *cfg_maildir = NULL;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n == 1 && !strncmp(argv[0], "lore:", 5))
		msgid = argv[0] + 5;
	else if (n == 2)
		msgid = argv[1];
	else
		return command_usage_error(opts, usage, n > 2 ?
					   "too many arguments" : "reply to "
					   "what? give a source and a "
					   "Message-ID");
	if (ack + review + tested > 1)
		return command_usage_error(opts, usage, "--ack, --review and "
					   "--tested: give one");
	if (mbox && maildir)
		return command_usage_error(opts, usage, "-o and --maildir: "
					   "give one");
	if (*msgid == '<') {
		size_t l = strlen(msgid);

		strbuf_add(&bare, msgid + 1, l > 1 && msgid[l - 1] == '>' ?
			   l - 2 : l - 1);
		msgid = bare.buf;
	}
	if (results && !ctx->repo) {
		error("--results reads the results of respin check: run it "
		      "in the repository that holds them");
		return error_report(RESPIN_ERR);
	}
	repo_user(ctx->repo, &name, &addr);
	if (!addr || !strchr(addr, '@')) {
		error("who is replying? user.email is %s%s%s", addr ? "\"" : "",
		      addr ? addr : "not set", addr ? "\"" : "");
		error_hint("git config --global user.email you@example.org");
		free(name);
		free(addr);
		strbuf_release(&bare);
		return error_report(RESPIN_ERR);
	}
	if (!mbox && !maildir) {
		cfg_maildir = repo_config_string(ctx->repo,
						 "respin.reply.maildir", NULL);
		maildir = cfg_maildir;
	}

	rq.source = argv[0];
	rq.msgid = msgid;
	rq.refresh = refresh;
	rq.results = results;
	rq.trailer = ack ? "Acked-by" : review ? "Reviewed-by" :
		     tested ? "Tested-by" : NULL;
	rq.name = name;
	rq.addr = addr;
	rq.date = repo_now();
	r = reply_make(ctx->repo, &rq, &draft, &id);
	if (!r)
		r = drafts_write(mbox, maildir, draft.buf, draft.len, rq.date,
				 id.buf, &out);
	fwrite(out.buf, 1, out.len, stdout);
	if (r < 0)
		r = error_report(r);
	free(name);
	free(addr);
	free(cfg_maildir);
	strbuf_release(&draft);
	strbuf_release(&out);
	strbuf_release(&bare);
	strbuf_release(&id);
	return r;
}
