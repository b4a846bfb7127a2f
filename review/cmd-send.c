// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin send NAME[@vN] [--dry-run] [--force] [--to ADDR] [--cc ADDR]
 *
 * Sends a version through git send-email (its config, its SMTP
 * settings) to the tree's maintainers, the previous version's
 * recipients and everyone who gave a trailer; records the Message-IDs
 * sent, so that later versions link to it and replies are found.
 */
#include "ci/grid.h"
#include "review/changelog.h"
#include "review/cover.h"
#include "review/format.h"
#include "review/recipients.h"
#include "series/store.h"
#include "series/trailerdiff.h"
#include "tools/lib/command.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/run.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const usage[] = {
	"respin send <name>[@v<n>] [--dry-run] [--force] [--to <addr>] [--cc <addr>]",
	NULL
};

/* Failed checks of v, one "2/3 checkpatch FAIL" a line; how many. */
static int failed_checks(git_repository *repo, const struct series_version *v,
			 struct strbuf *out)
{
	struct grid_store st;
	struct grid g = { 0 };
	size_t i, k;
	int n = 0, r = grid_store_open(repo, &st);

	if (!r)
		r = grid_load_stored(&g, repo, &st, v);
	if (r < 0)
		goto out;
	for (i = 1; i <= v->nr_patches; i++)
		for (k = 0; k < g.ncols; k++) {
			const struct grid_cell *c = grid_cell(&g, i, k);

			if (!c->have || !strcmp(c->res.status, "PASS") ||
			    !strcmp(c->res.status, "SKIP"))
				continue;
			strbuf_addf(out, "  %zu/%zu %s %s\n", i, v->nr_patches,
				    st.checks.items[k].name, c->res.status);
			n++;
		}
	r = n;
out:
	grid_release(&g);
	grid_store_close(&st);
	return r;
}

/* get_maintainer.pl of the tree on the patch files, when it has one. */
static void add_maintainers(git_repository *repo, struct recipients *rc,
			    const char *dir, const struct format_result *res,
			    int *ran)
{
	const char *top = git_repository_workdir(repo);
	struct strbuf script = STRBUF_INIT;
	const char **argv;
	struct run_opts o = { 0 };
	struct run_result rr;
	char **paths;
	size_t i, n = 0;

	*ran = 0;
	if (!top)
		return;
	strbuf_addf(&script, "%sscripts/get_maintainer.pl", top);
	if (access(script.buf, R_OK)) {
		strbuf_release(&script);
		return;
	}
	argv = xcalloc(res->nr + 8, sizeof(*argv));
	paths = xcalloc(res->nr + 1, sizeof(*paths));
	argv[n++] = "perl";
	argv[n++] = script.buf;
	argv[n++] = "--rolestats";
	argv[n++] = "--no-git";
	argv[n++] = "--no-git-fallback";
	for (i = 0; i < res->nr; i++) {
		struct strbuf p = STRBUF_INIT;

		strbuf_addf(&p, "%s/%s", dir, res->mails[i].file_name);
		paths[i] = strbuf_detach(&p, NULL);
		/* the cover letter has no diff: get_maintainer skips it */
		argv[n++] = paths[i];
	}
	o.argv = argv;
	o.cwd = top;
	o.timeout = 120;
	run_result_init(&rr);
	if (!run_program(&o, &rr) && rr.exited && !rr.exit_code) {
		recipients_add_get_maintainer(rc, rr.output.buf);
		*ran = 1;
	} else {
		fprintf(stderr, "warning: %s failed; no maintainers added\n",
			script.buf);
		error_clear();
	}
	run_result_release(&rr);
	for (i = 0; i < res->nr; i++)
		free(paths[i]);
	free(paths);
	free(argv);
	strbuf_release(&script);
}

/* Every occurrence of from in the mails' texts becomes to. */
static void replace_id(struct format_result *res, const char *from,
		       const char *to)
{
	size_t i, fl = strlen(from);

	for (i = 0; i < res->nr; i++) {
		struct strbuf *t = &res->mails[i].text, nb = STRBUF_INIT;
		const char *p = t->buf, *q;

		while ((q = strstr(p, from))) {
			strbuf_add(&nb, p, (size_t)(q - p));
			strbuf_addstr(&nb, to);
			p = q + fl;
		}
		strbuf_addstr(&nb, p);
		strbuf_release(t);
		*t = nb;
	}
}

/* New Message-IDs for a resend: "-rTIME" before the '@'. */
static void fresh_ids(struct format_result *res, int64_t when)
{
	size_t i;

	for (i = 0; i < res->nr; i++) {
		char *old = res->mails[i].message_id, *at = strrchr(old, '@');
		struct strbuf nid = STRBUF_INIT;

		strbuf_add(&nid, old, at ? (size_t)(at - old) : strlen(old));
		strbuf_addf(&nid, "-r%lld%s", (long long)when, at ? at : "");
		replace_id(res, old, nid.buf);
		free(old);
		res->mails[i].message_id = strbuf_detach(&nid, NULL);
	}
}

static void remove_dir(const char *dir, const struct format_result *res)
{
	struct strbuf p = STRBUF_INIT;
	size_t i;

	for (i = 0; i < res->nr; i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dir, res->mails[i].file_name);
		unlink(p.buf);
	}
	rmdir(dir);
	strbuf_release(&p);
}

static void strbuf_rtrim_char(struct strbuf *sb, char c)
{
	while (sb->len > 1 && sb->buf[sb->len - 1] == c)
		strbuf_setlen(sb, sb->len - 1);
}

static int record_sent(git_repository *repo, struct series *s,
		       struct series_version *v, const struct format_result *res,
		       const struct recipients *rc, int64_t when)
{
	struct strbuf sent = STRBUF_INIT, msg = STRBUF_INIT;
	size_t i, first = res->nr > v->nr_patches ? 1 : 0;
	int r;

	free(v->message_id);
	v->message_id = xstrdup(res->mails[0].message_id);
	for (i = 0; i < v->nr_patches; i++) {
		free(v->patches[i].message_id);
		v->patches[i].message_id =
			xstrdup(res->mails[first + i].message_id);
	}
	strbuf_addf(&sent, "Date: %s\n", repo_date(when));
	recipients_format(rc, &sent);
	for (i = 0; i < res->nr; i++)
		strbuf_addf(&sent, "Message-Id: <%s>\n", res->mails[i].message_id);
	series_version_attach(v, "sent", sent.buf, sent.len);
	strbuf_addf(&msg, "respin send %s v%d", s->name, v->number);
	r = series_save(repo, s, NULL, msg.buf);
	strbuf_release(&sent);
	strbuf_release(&msg);
	return r;
}


int cmd_send(int argc, const char **argv, struct command_context *ctx)
{
	int dry_run = 0, force = 0, exit_code, n, r, ran_gm = 0, nfail;
	const char *to = NULL, *cc = NULL;
	struct option opts[] = {
		OPT_BOOL(0, "dry-run", &dry_run,
			 "show what would be sent (git send-email --dry-run); "
			 "record nothing"),
		OPT_BOOL(0, "force", &force,
			 "send even when checks failed, or again"),
		OPT_STRING(0, "to", &to, "addr", "also To this address"),
		OPT_STRING(0, "cc", &cc, "addr", "also Cc this address"),
		OPT_END()
	};
	struct series s;
	struct series_version *v, *prev = NULL;
	struct format_options fo = { 0 };
	struct format_result res = { 0 };
	struct recipients rc;
	struct strbuf pfx = STRBUF_INIT, fails = STRBUF_INIT;
	struct strbuf dir = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf key = STRBUF_INIT;
	const char **sargv = NULL;
	char *lore = NULL, *cfg;
	size_t i, k, na = 0;
	int64_t now = repo_now();

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give NAME[@vN]");
	recipients_init(&rc);
	r = series_load_spec(ctx->repo, argv[0], &s, &v);
	if (r < 0) {
		series_release(&s);	/* it is set up even when it fails */
		return error_report(r);
	}
	if (series_version_attachment(ctx->repo, &s, v, "sent", &text) == 0 &&
	    !force && !dry_run) {
		r = error("%s v%d was sent already (%.*s): --force sends it "
			  "again, with new Message-IDs", s.name, v->number,
			  (int)strcspn(text.buf, "\n"), text.buf);
		goto fail;
	}
	strbuf_reset(&text);
	error_clear();
	nfail = failed_checks(ctx->repo, v, &fails);
	if (nfail < 0) {
		r = nfail;
		goto fail;
	}
	if (nfail && !force) {
		error("%s v%d has %d failed check%s: fix them, or --force to "
		      "send it anyway:\n%s", s.name, v->number, nfail,
		      nfail == 1 ? "" : "s", fails.buf);
		r = RESPIN_ERR;
		goto fail;
	}

	cover_subject_prefix(ctx->repo, &s, v, NULL, 0, &pfx);
	fo.prefix = pfx.buf;
	fo.cover_letter = -1;
	lore = repo_lore_url(ctx->repo);
	fo.lore_url = lore;
	r = format_version(ctx->repo, &s, v, &fo, &res);
	if (r < 0)
		goto fail;
	if (res.nr > v->nr_patches && !force &&
	    (strstr(res.mails[0].text.buf, "*** SUBJECT HERE ***") ||
	     strstr(res.mails[0].text.buf, "*** BLURB HERE ***"))) {
		r = error("the cover letter of %s v%d is still the template "
			  "(*** SUBJECT HERE ***): write it with 'respin cover "
			  "%s --edit'", s.name, v->number, s.name);
		goto fail;
	}
	if (force && !dry_run)
		fresh_ids(&res, now);

	/* the mails into a folder of our own, for get_maintainer and git */
	strbuf_addstr(&dir, git_repository_path(ctx->repo));
	strbuf_rtrim_char(&dir, '/');
	strbuf_addstr(&dir, "/respin/send-XXXXXX");
	if (mkdir_leading(dir.buf) < 0 || !mkdtemp(dir.buf)) {
		r = error_errno("cannot make a folder for the mails in %s",
				git_repository_path(ctx->repo));
		goto fail;
	}
	r = format_write(&res, dir.buf);
	if (r < 0)
		goto fail_dir;

	/* who: given, configured, maintainers, the last time, trailers */
	if (to && recipients_add(&rc, 1, to) < 0)
		goto usage_addr;
	if (cc && recipients_add(&rc, 0, cc) < 0)
		goto usage_addr;
	/* "To:"/"Cc:" lines above the cover letter's title */
	if (!series_version_attachment(ctx->repo, &s, v, "cover", &text)) {
		struct cover_text ct;

		cover_text_parse(text.buf, text.len, &ct);
		if (recipients_add_list(&rc, 1, ct.to.buf) < 0 ||
		    recipients_add_list(&rc, 0, ct.cc.buf) < 0) {
			char *why = xstrdup(error_last());

			r = error("the cover letter of %s v%d: %s: fix its To:/Cc: "
				  "lines (respin cover %s --edit)", s.name,
				  v->number, why, s.name);
			free(why);
			cover_text_release(&ct);
			goto fail_dir;
		}
		cover_text_release(&ct);
	}
	strbuf_reset(&text);
	error_clear();
	strbuf_addf(&key, "respin.series.%s.to", s.name);
	if ((cfg = repo_config_string(ctx->repo, key.buf, NULL))) {
		if (recipients_add(&rc, 1, cfg) < 0)
			error_clear();
		free(cfg);
	}
	strbuf_reset(&key);
	strbuf_addf(&key, "respin.series.%s.cc", s.name);
	if ((cfg = repo_config_string(ctx->repo, key.buf, NULL))) {
		if (recipients_add(&rc, 0, cfg) < 0)
			error_clear();
		free(cfg);
	}
	add_maintainers(ctx->repo, &rc, dir.buf, &res, &ran_gm);
	for (k = 0; k < s.nr_versions; k++)
		if (s.versions[k].number < v->number)
			prev = &s.versions[k];
	if (prev && !series_version_attachment(ctx->repo, &s, prev, "sent",
						&text))
		recipients_add_stored(&rc, text.buf);
	error_clear();
	for (i = 0; i < res.nr; i++)
		recipients_add_trailers(&rc, res.mails[i].text.buf);
	if (!rc.nr_to && !rc.nr_cc) {
		r = error("%s v%d: sent to whom? no get_maintainer.pl in the "
			  "tree, no earlier version sent, no trailers: give "
			  "--to ADDR or set respin.series.%s.to", s.name,
			  v->number, s.name);
		goto fail_dir;
	}
	if (!rc.nr_to) {
		/* the first Cc becomes the To */
		rc.to = xcalloc(1, sizeof(char *));
		rc.alloc_to = 1;
		rc.to[rc.nr_to++] = rc.cc[0];
		memmove(rc.cc, rc.cc + 1, --rc.nr_cc * sizeof(char *));
	}
	{
		/* the tags lost since the last version: for the author */
		struct strbuf lost = STRBUF_INIT;

		trailerdiff_lines(&lost, ctx->repo, &s, v);
		warning_lines(lost.buf);
		strbuf_release(&lost);
	}
	fprintf(stderr, "%s v%d: %zu mail%s to %zu, cc %zu%s\n", s.name,
		v->number, res.nr, res.nr == 1 ? "" : "s", rc.nr_to, rc.nr_cc,
		ran_gm ? " (with scripts/get_maintainer.pl)" : "");

	sargv = xcalloc(rc.nr_to + rc.nr_cc + res.nr + 12, sizeof(*sargv));
	{
		char **owned = xcalloc(rc.nr_to + rc.nr_cc + res.nr + 1,
				       sizeof(char *));
		size_t no = 0;

		sargv[na++] = "git";
		sargv[na++] = "send-email";
		sargv[na++] = "--no-format-patch";
		sargv[na++] = "--no-thread";	/* the mails are threaded */
		sargv[na++] = "--8bit-encoding=UTF-8";
		if (dry_run)
			sargv[na++] = "--dry-run";
		for (i = 0; i < rc.nr_to + rc.nr_cc; i++) {
			struct strbuf a = STRBUF_INIT;

			strbuf_addf(&a, "--%s=%s", i < rc.nr_to ? "to" : "cc",
				    i < rc.nr_to ? rc.to[i] : rc.cc[i - rc.nr_to]);
			owned[no] = strbuf_detach(&a, NULL);
			sargv[na++] = owned[no++];
		}
		for (i = 0; i < res.nr; i++) {
			struct strbuf a = STRBUF_INIT;

			strbuf_addf(&a, "%s/%s", dir.buf, res.mails[i].file_name);
			owned[no] = strbuf_detach(&a, NULL);
			sargv[na++] = owned[no++];
		}
		fflush(stdout);
		r = run_interactive(sargv);
		for (i = 0; i < no; i++)
			free(owned[i]);
		free(owned);
	}
	if (r < 0)
		goto fail_dir;
	if (r != 0) {
		r = error("git send-email exited with %d: nothing recorded "
			  "(some mails may have gone out: check its output)",
			  r);
		goto fail_dir;
	}
	remove_dir(dir.buf, &res);
	if (dry_run) {
		printf("%s v%d: dry run, nothing sent or recorded\n", s.name,
		       v->number);
		goto done;
	}
	r = record_sent(ctx->repo, &s, v, &res, &rc, now);
	if (r < 0)
		goto fail;
	printf("%s v%d sent as <%s>\n", s.name, v->number,
	       res.mails[0].message_id);
	goto done;
usage_addr:
	remove_dir(dir.buf, &res);
	{
		char *why = xstrdup(error_last());

		r = error_code(RESPIN_EUSAGE, "%s: give --to and --cc an "
			       "address", why);
		free(why);
	}
	goto fail;
fail_dir:
	remove_dir(dir.buf, &res);
fail:
	r = error_report(r);
	goto out;
done:
	r = 0;
out:
	free(sargv);
	free(lore);
	format_result_release(&res);
	recipients_release(&rc);
	series_release(&s);
	strbuf_release(&pfx);
	strbuf_release(&fails);
	strbuf_release(&dir);
	strbuf_release(&text);
	strbuf_release(&key);
	return r;
}
