// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin reply SOURCE MSGID [--results] [--ack|--review|--tested]
 *              [-o FILE | --maildir DIR]
 *
 * A reply draft to one message, never sent: printed, appended to an
 * mbox, or put into a maildir as a draft.
 */
#include "patches/email.h"
#include "patches/patchmail.h"
#include "review/drafts.h"
#include "review/reply.h"
#include "review/replyresults.h"
#include "series/mailset.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const usage[] = {
	"respin reply <source> <msgid> [--results] [--ack | --review | --tested]",
	"             [-o <mbox> | --maildir <dir>]",
	NULL
};

/* The local zone now, in minutes east of UTC. */
static int local_tz(int64_t when)
{
	time_t t = (time_t)when;
	struct tm tm;

	if (!localtime_r(&t, &tm))
		return 0;
	return (int)(tm.tm_gmtoff / 60);
}

/* The patch-id of the diff in the message, when it has one. */
static int mail_patch_id(const char *raw, size_t len,
			 const struct mail_where *where, git_oid *out)
{
	struct mail_body b;
	struct patchmail pm;
	git_diff *diff = NULL;
	int got = 0;

	mail_body_init(&b);
	patchmail_init(&pm);
	if (mail_body_parse(&b, raw, len, where) < 0 ||
	    patchmail_split(&pm, b.text, b.len, "the message") < 0) {
		error_clear();
		goto out;
	}
	if (pm.diff.p && !git_diff_from_buffer(&diff, pm.diff.p, pm.diff.len) &&
	    !git_diff_patchid(out, diff, NULL))
		got = 1;
	git_error_clear();
	git_diff_free(diff);
out:
	patchmail_release(&pm);
	mail_body_release(&b);
	return got;
}

/*
 * A cover letter has no diff: the patch-id of the first of its patches
 * in the source names its version.
 */
static int cover_patch_id(struct mailset *ms, long m, git_oid *out)
{
	struct ms_version *v;
	long vi, k;

	if (mailset_group(ms, 0, ms->msgs[m].msgid) < 0) {
		error_clear();
		return 0;
	}
	if (ms->msgs[m].kind != MS_COVER || (vi = ms->msgs[m].version) < 0)
		return 0;
	if (mailset_load(ms, vi) < 0) {
		error_clear();
		return 0;
	}
	v = &ms->versions[vi];
	for (k = 0; k < v->total; k++)
		if (v->patches[k].d && v->patches[k].d->has_patch_id) {
			*out = v->patches[k].d->patch_id;
			return 1;
		}
	return 0;
}

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
	struct reply_options ro = { 0 };
	struct mail_source *src = NULL;
	struct mailset ms;
	struct strbuf raw = STRBUF_INIT, draft = STRBUF_INIT;
	struct strbuf block = STRBUF_INIT, id = STRBUF_INIT;
	char *name = NULL, *addr = NULL, *cfg_maildir = NULL;
	long m;

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

		strbuf_add(&id, msgid + 1, l > 1 && msgid[l - 1] == '>' ?
			   l - 2 : l - 1);
		msgid = id.buf;
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
		strbuf_release(&id);
		return error_report(RESPIN_ERR);
	}
	if (!mbox && !maildir) {
		cfg_maildir = repo_config_string(ctx->repo,
						 "respin.reply.maildir", NULL);
		maildir = cfg_maildir;
	}

	mailset_init(&ms, NULL);
	r = mailset_source_open(ctx->repo, argv[0], refresh, &src);
	if (r < 0)
		goto fail;
	ms.src = src;
	r = mailset_scan(&ms);
	if (r < 0)
		goto fail;
	m = mailset_find(&ms, msgid);
	if (m < 0) {
		r = error_code(RESPIN_ENOTFOUND, "no message <%s> in %s", msgid,
			       mail_source_describe(src));
		goto fail;
	}
	r = mailset_raw(&ms, m, &raw);
	if (r < 0)
		goto fail;
	{
		struct mail_where w = { mail_source_name(src),
					ms.msgs[m].number };

		if (results) {
			git_oid pid;
			int whole = 0;
			int have = mail_patch_id(raw.buf, raw.len, &w, &pid);

			if (!have)
				have = whole = cover_patch_id(&ms, m, &pid);
			r = reply_results(ctx->repo, msgid, have ? &pid : NULL,
					  whole, &block);
			if (r < 0)
				goto fail;
		}
		ro.from_name = name;
		ro.from_addr = addr;
		ro.date = repo_now();
		ro.date_tz = getenv("GIT_COMMITTER_DATE") ? 0 : local_tz(ro.date);
		ro.block = block.len ? block.buf : NULL;
		ro.trailer = ack ? "Acked-by" : review ? "Reviewed-by" :
			     tested ? "Tested-by" : NULL;
		strbuf_reset(&id);
		reply_make_message_id(&id, addr, ro.date);
		ro.message_id = id.buf;
		r = reply_draft(&draft, raw.buf, raw.len, &w, &ro, NULL);
		if (r < 0)
			goto fail;
	}
	r = drafts_write(mbox, maildir, draft.buf, draft.len, ro.date, id.buf);
	if (r < 0)
		goto fail;
	r = 0;
	goto out;
fail:
	r = error_report(r);
out:
	free(name);
	free(addr);
	free(cfg_maildir);
	strbuf_release(&raw);
	strbuf_release(&draft);
	strbuf_release(&block);
	strbuf_release(&id);
	mailset_release(&ms);
	mail_source_free(src);
	return r;
}
