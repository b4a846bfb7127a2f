// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin thanks NAME[@vN] --in BRANCH [--source SOURCE]
 *               [-o FILE | --maildir DIR]
 *
 * For a maintainer: the "applied, thanks" reply to a version's cover
 * letter (or to each applied patch when it has none), each patch with
 * the commit it became in BRANCH.  A draft, never sent.
 */
#include "review/drafts.h"
#include "review/reply.h"
#include "review/thanks.h"
#include "series/mailset.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
	"respin thanks <name>[@v<n>] --in <branch> [--source <source>]",
	"              [-o <mbox> | --maildir <dir>] [--max-commits <n>]",
	NULL
};

/* One draft answering msgid, appended to drafts (a plain message each). */
static int one_draft(struct mailset *ms, const char *msgid,
		     struct reply_options *ro, struct strbuf *out)
{
	struct strbuf raw = STRBUF_INIT, id = STRBUF_INIT;
	struct mail_where w;
	long m = mailset_find(ms, msgid);
	int r;

	if (m < 0)
		return error_code(RESPIN_ENOTFOUND, "no message <%s> in %s: "
				  "give the mail with --source", msgid,
				  mail_source_describe(ms->src));
	r = mailset_raw(ms, m, &raw);
	if (!r) {
		w.path = mail_source_name(ms->src);
		w.number = ms->msgs[m].number;
		reply_make_message_id(&id, ro->from_addr, ro->date);
		ro->message_id = id.buf;
		r = reply_draft(out, raw.buf, raw.len, &w, ro, NULL);
		ro->message_id = NULL;
	}
	strbuf_release(&raw);
	strbuf_release(&id);
	return r;
}

int cmd_thanks(int argc, const char **argv, struct command_context *ctx)
{
	const char *branch = NULL, *source = NULL, *mbox = NULL, *maildir = NULL;
	int max_commits = 10000, exit_code, n, r, has_cover;
	struct option opts[] = {
		OPT_STRING(0, "in", &branch, "branch",
			   "the branch the patches were applied to"),
		OPT_STRING(0, "source", &source, "source",
			   "where the version's mail is (default lore:MSGID)"),
		OPT_STRING('o', "output", &mbox, "mbox",
			   "append the drafts to this mbox"),
		OPT_STRING(0, "maildir", &maildir, "dir",
			   "put the drafts into this maildir (flagged draft)"),
		OPT_INT(0, "max-commits", &max_commits, "n",
			"read at most N commits of the branch when the "
			"version's base is not in it (default 10000)"),
		OPT_END()
	};
	struct series s;
	struct series_version *v;
	struct reply_options ro = { 0 };
	struct mail_source *src = NULL;
	struct mailset ms;
	struct strbuf spec = STRBUF_INIT, cover = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT, drafts = STRBUF_INIT;
	char *name = NULL, *addr = NULL;
	git_oid *commits = NULL;
	size_t walked = 0, i, nr_drafts = 0;
	int found;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give NAME[@vN]");
	if (!branch)
		return command_usage_error(opts, usage, "applied where? give "
					   "--in BRANCH");
	if (mbox && maildir)
		return command_usage_error(opts, usage, "-o and --maildir: "
					   "give one");
	if (max_commits < 0)
		return command_usage_error(opts, usage, "--max-commits: a "
					   "count, 0 for no bound");
	mailset_init(&ms, NULL);
	r = series_load_spec(ctx->repo, argv[0], &s, &v);
	if (r < 0) {
		series_release(&s);	/* it is set up even when it fails */
		return error_report(r);
	}
	repo_user(ctx->repo, &name, &addr);
	if (!addr || !strchr(addr, '@')) {
		error("who is thanking? user.email is not set");
		error_hint("git config --global user.email you@example.org");
		r = RESPIN_ERR;
		goto fail;
	}
	if (!v->message_id) {
		r = error("%s v%d has no Message-IDs: it was not imported from "
			  "mail, so there is no mail to answer", s.name,
			  v->number);
		goto fail;
	}
	commits = xcalloc(v->nr_patches + 1, sizeof(*commits));
	found = thanks_find(ctx->repo, branch, v, (size_t)max_commits,
			    commits, &walked);
	if (found < 0) {
		r = found;
		goto fail;
	}
	if (!found) {
		r = error("none of the %zu patches of %s v%d is in %s (by "
			  "patch-id, %zu commits read)", v->nr_patches, s.name,
			  v->number, branch, walked);
		goto fail;
	}
	for (i = 0; i < v->nr_patches; i++)
		if (git_oid_is_zero(&commits[i]))
			fprintf(stderr, "note: %zu/%zu \"%s\" is not in %s\n",
				i + 1, v->nr_patches, v->patches[i].subject,
				branch);

	if (!source) {
		strbuf_addf(&spec, "lore:%s", v->message_id);
		source = spec.buf;
	}
	r = mailset_source_open(ctx->repo, source, 0, &src);
	if (r < 0)
		goto fail;
	ms.src = src;
	r = mailset_scan(&ms);
	if (r < 0)
		goto fail;

	ro.from_name = name;
	ro.from_addr = addr;
	ro.date = repo_now();
	ro.quote_max = 3;
	ro.block = text.buf;
	has_cover = v->nr_patches > 1 ||
		series_version_text(ctx->repo, &s, v, SERIES_TEXT_COVER,
				    &cover) == 0;
	if (has_cover && (!v->nr_patches || !v->patches[0].message_id ||
			  strcmp(v->patches[0].message_id, v->message_id))) {
		thanks_text(&text, v, commits, 0, branch, name, addr);
		ro.block = text.buf;
		r = one_draft(&ms, v->message_id, &ro, &drafts);
		if (r < 0)
			goto fail;
		nr_drafts = 1;
	} else {
		/* no cover letter: each applied patch gets its own */
		for (i = 0; i < v->nr_patches; i++) {
			struct strbuf one = STRBUF_INIT;

			if (git_oid_is_zero(&commits[i]))
				continue;
			if (!v->patches[i].message_id) {
				r = error("%zu/%zu of %s v%d has no Message-ID",
					  i + 1, v->nr_patches, s.name,
					  v->number);
				goto fail;
			}
			strbuf_reset(&text);
			thanks_text(&text, v, commits, i + 1, branch, name,
				    addr);
			ro.block = text.buf;
			r = one_draft(&ms, v->patches[i].message_id, &ro, &one);
			if (!r) {
				/* kept apart by NULs until written */
				strbuf_add(&drafts, one.buf, one.len);
				strbuf_addch(&drafts, '\0');
				nr_drafts++;
			}
			strbuf_release(&one);
			if (r < 0)
				goto fail;
		}
		goto write_many;
	}
	/* one draft */
	r = drafts_write(mbox, maildir, drafts.buf, drafts.len, ro.date, NULL);
	if (r < 0)
		goto fail;
	goto done;
write_many:
	{
		/* drafts holds NUL-separated messages */
		const char *p = drafts.buf, *end = drafts.buf + drafts.len;
		struct strbuf all = STRBUF_INIT;

		for (; p < end; p += strlen(p) + 1) {
			size_t len = strlen(p);

			if (mbox || !maildir) {
				strbuf_addstr(&all, "From mboxrd@z Thu Jan  1 "
					      "00:00:00 1970\n");
				strbuf_add(&all, p, len);
				strbuf_addch(&all, '\n');
			}
			if (maildir || mbox) {
				/* each on its own: the mbox said once below */
				r = maildir ? drafts_write(NULL, maildir, p, len,
							   ro.date, NULL)
					    : drafts_mbox_append(mbox, p, len);
				if (r < 0) {
					strbuf_release(&all);
					goto fail;
				}
			}
		}
		if (mbox)
			printf("%zu draft%s appended to %s\n", nr_drafts,
			       nr_drafts == 1 ? "" : "s", mbox);
		else if (!maildir)
			fwrite(all.buf, 1, all.len, stdout);
		strbuf_release(&all);
	}
done:
	r = 0;
	goto out;
fail:
	r = error_report(r);
out:
	free(name);
	free(addr);
	free(commits);
	strbuf_release(&spec);
	strbuf_release(&cover);
	strbuf_release(&text);
	strbuf_release(&drafts);
	mailset_release(&ms);
	mail_source_free(src);
	series_release(&s);
	return r;
}
