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
#include "review/reply.h"
#include "review/replyresults.h"
#include "series/mailset.h"
#include "tools/lib/command.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const usage[] = {
	"respin reply <source> <msgid> [--results] [--ack | --review | --tested]",
	"             [-o <mbox> | --maildir <dir>]",
	NULL
};

/* The user: GIT_AUTHOR_NAME/EMAIL, else user.name/user.email. */
static void identity(git_repository *repo, char **name, char **addr)
{
	const char *n = getenv("GIT_AUTHOR_NAME");
	const char *a = getenv("GIT_AUTHOR_EMAIL");

	*name = n && *n ? xstrdup(n) : repo_config_string(repo, "user.name",
							  NULL);
	*addr = a && *a ? xstrdup(a) : repo_config_string(repo, "user.email",
							  NULL);
}

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

/* Appends the draft to an mbox in one write (a mail client's drafts). */
static int write_mbox(const char *path, const char *text, size_t len)
{
	struct strbuf mb = STRBUF_INIT;
	ssize_t w;
	int fd, r = 0;

	strbuf_addstr(&mb, "From mboxrd@z Thu Jan  1 00:00:00 1970\n");
	email_mboxrd_append(&mb, text, len);
	/* the blank line before the next "From " */
	if (mb.len && mb.buf[mb.len - 1] != '\n')
		strbuf_addch(&mb, '\n');
	strbuf_addch(&mb, '\n');
	if (mkdir_leading(path) < 0)
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd < 0) {
		strbuf_release(&mb);
		return error_errno("cannot open %s", path);
	}
	w = write(fd, mb.buf, mb.len);
	if (w != (ssize_t)mb.len) {
		r = w < 0 ? error_errno("cannot write %s", path)
			  : error("cannot write %s: short write", path);
		/* take back what part of the draft got in */
		if (w > 0) {
			struct stat st;

			if (!fstat(fd, &st) && st.st_size >= w &&
			    ftruncate(fd, st.st_size - w) < 0)
				error_clear();
		}
	} else if (fsync(fd) < 0 && errno != EINVAL) {
		r = error_errno("cannot write %s", path);
	}
	if (close(fd) < 0 && !r)
		r = error_errno("cannot write %s", path);
	strbuf_release(&mb);
	return r;
}

/* Puts the draft into DIR/cur as a draft (flag D), through DIR/tmp. */
static int write_maildir(const char *dir, const char *text, size_t len,
			 int64_t when, struct strbuf *where)
{
	struct strbuf tmp = STRBUF_INIT, sub = STRBUF_INIT;
	struct strbuf name = STRBUF_INIT;
	const char *subs[] = { "tmp", "new", "cur" };
	char host[256];
	size_t i;
	int fd, r = 0;

	if (gethostname(host, sizeof(host)) < 0)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	for (i = 0; host[i]; i++)
		if (host[i] == '/' || host[i] == ':')
			host[i] = '_';
	for (i = 0; i < 3; i++) {
		strbuf_reset(&sub);
		strbuf_addf(&sub, "%s/%s", dir, subs[i]);
		if (mkdir_parents(sub.buf) < 0) {
			r = -1;
			goto out;
		}
	}
	reply_make_message_id(&name, NULL, when);
	/* "TIME.PID.RANDOM@respin.localhost": keep the part before '@' */
	strbuf_setlen(&name, (size_t)(strchr(name.buf, '@') - name.buf));
	strbuf_addf(&name, ".respin.%s", host);
	strbuf_addf(&tmp, "%s/tmp/%s", dir, name.buf);
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		r = error_errno("cannot create %s", tmp.buf);
		goto out;
	}
	if (write(fd, text, len) != (ssize_t)len || fsync(fd) < 0) {
		r = error_errno("cannot write %s", tmp.buf);
		close(fd);
		unlink(tmp.buf);
		goto out;
	}
	if (close(fd) < 0) {
		r = error_errno("cannot write %s", tmp.buf);
		unlink(tmp.buf);
		goto out;
	}
	strbuf_addf(where, "%s/cur/%s:2,D", dir, name.buf);
	if (rename(tmp.buf, where->buf) < 0) {
		r = error_errno("cannot move the draft to %s", where->buf);
		unlink(tmp.buf);
	}
out:
	strbuf_release(&tmp);
	strbuf_release(&sub);
	strbuf_release(&name);
	return r;
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
	struct strbuf where = STRBUF_INIT;
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
	identity(ctx->repo, &name, &addr);
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
	if (mbox) {
		r = write_mbox(mbox, draft.buf, draft.len);
		if (r < 0)
			goto fail;
		printf("draft <%s> appended to %s\n", id.buf, mbox);
	} else if (maildir) {
		r = write_maildir(maildir, draft.buf, draft.len, ro.date, &where);
		if (r < 0)
			goto fail;
		printf("draft <%s> in %s\n", id.buf, where.buf);
	} else {
		fwrite(draft.buf, 1, draft.len, stdout);
	}
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
	strbuf_release(&where);
	mailset_release(&ms);
	mail_source_free(src);
	return r;
}
