// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin send NAME[@vN] [--dry-run [--json]] [--force] [--to ADDR] [--cc ADDR]
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
#include "review/sendto.h"
#include "series/store.h"
#include "series/trailerdiff.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/json.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/run.h"
#include "tools/lib/termsafe.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const usage[] = {
	"respin send <name>[@v<n>] [--dry-run [--json]] [--force] [--to <addr>] [--cc <addr>]",
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

			if (!c->have || c->res.status == RESULT_PASS ||
			    c->res.status == RESULT_SKIP)
				continue;
			strbuf_addf(out, "  %zu/%zu %s %s\n", i, v->nr_patches,
				    st.checks.items[k].name,
				    result_status_name(c->res.status));
			n++;
		}
	r = n;
out:
	grid_release(&g);
	grid_store_close(&st);
	return r;
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
	series_version_set_text(v, SERIES_TEXT_SENT, sent.buf, sent.len);
	strbuf_addf(&msg, "respin send %s v%d", s->name, v->number);
	r = series_save(repo, s, NULL, msg.buf);
	strbuf_release(&sent);
	strbuf_release(&msg);
	return r;
}


static void json_who(struct json *j, const char *key, char **who,
		     const char **src, size_t nr)
{
	size_t i;

	json_key(j, key);
	json_array_begin(j);
	for (i = 0; i < nr; i++) {
		json_object_begin(j);
		json_string_member(j, "address", who[i]);
		json_string_member(j, "from", src[i] ? src[i] : "");
		json_object_end(j);
	}
	json_array_end(j);
}

/* --dry-run --json: the mails, who gets them and why. */
static void print_json(const struct series *s, const struct series_version *v,
		       const struct format_result *res,
		       const struct recipients *rc,
		       const struct sendto_options *so)
{
	struct strbuf out = STRBUF_INIT;
	struct json j;
	size_t i;

	json_init(&j, &out, 1);
	json_object_begin(&j);
	json_string_member(&j, "series", s->name);
	json_int_member(&j, "version", v->number);
	json_key(&j, "mails");
	json_array_begin(&j);
	for (i = 0; i < res->nr; i++) {
		json_object_begin(&j);
		json_string_member(&j, "file", res->mails[i].file_name);
		json_string_member(&j, "message_id", res->mails[i].message_id);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_who(&j, "to", rc->to, rc->to_src, rc->nr_to);
	json_who(&j, "cc", rc->cc, rc->cc_src, rc->nr_cc);
	json_who(&j, "left_out", rc->dropped, rc->dropped_src, rc->nr_dropped);
	json_bool_member(&j, "get_maintainer", so->ran_get_maintainer);
	json_object_end(&j);
	puts(out.buf);
	strbuf_release(&out);
}

int cmd_send(int argc, const char **argv, struct command_context *ctx)
{
	int dry_run = 0, force = 0, json = 0, exit_code, n, r, nfail;
	const char *to = NULL, *cc = NULL;
	struct option opts[] = {
		OPT_BOOL(0, "dry-run", &dry_run,
			 "show what would be sent (git send-email --dry-run); "
			 "record nothing"),
		OPT_BOOL(0, "force", &force,
			 "send even when checks failed, or again"),
		OPT_STRING(0, "to", &to, "addr", "also To this address"),
		OPT_STRING(0, "cc", &cc, "addr", "also Cc this address"),
		OPT_BOOL(0, "json", &json,
			 "with --dry-run: who and why as JSON, instead of "
			 "running git send-email"),
		OPT_END()
	};
	struct series s;
	struct series_version *v;
	struct sendto_options so = { 0 };
	struct format_options fo = { 0 };
	struct format_result res = { 0 };
	struct recipients rc;
	struct strbuf pfx = STRBUF_INIT, fails = STRBUF_INIT;
	struct strbuf dir = STRBUF_INIT, text = STRBUF_INIT;
	const char **sargv = NULL;
	char *lore = NULL;
	size_t i, na = 0;
	int64_t now = repo_now();

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give NAME[@vN]");
	if (json && !dry_run)
		return command_usage_error(opts, usage, "--json goes with "
					   "--dry-run: it shows what would "
					   "be sent");
	recipients_init(&rc);
	r = series_load_spec(ctx->repo, argv[0], &s, &v);
	if (r < 0) {
		series_release(&s);	/* it is set up even when it fails */
		return error_report(r);
	}
	if (series_version_text(ctx->repo, &s, v, SERIES_TEXT_SENT,
				&text) == 0 &&
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
	r = sendto_write_mails(ctx->repo, &res, &dir);
	if (r < 0)
		goto fail;
	so.to = to;
	so.cc = cc;
	r = sendto_collect(ctx->repo, &s, v, &res, dir.buf, &so, &rc);
	if (r < 0)
		goto fail_dir;
	if (!rc.nr_to && !rc.nr_cc) {
		r = error("%s v%d: sent to whom? no get_maintainer.pl in the "
			  "tree, no earlier version sent, no trailers: give "
			  "--to ADDR or set respin.series.%s.to", s.name,
			  v->number, s.name);
		goto fail_dir;
	}
	if (!rc.nr_to)
		recipients_cc_to_to(&rc);	/* the first Cc becomes the To */
	if (json) {
		sendto_remove_mails(dir.buf, &res);
		print_json(&s, v, &res, &rc, &so);
		goto done;
	}
	for (i = 0; i < rc.nr_dropped; i++)
		fprintf(stderr, "%s v%d: not sent to %s (from %s): deleted "
			"from the cover letter's To:/Cc: lines\n", s.name,
			v->number, term_safe(rc.dropped[i]),
			rc.dropped_src[i] ? rc.dropped_src[i] : "?");
	{
		/* the tags lost since the last version: for the author */
		struct strbuf lost = STRBUF_INIT;

		trailerdiff_lines(&lost, ctx->repo, &s, v);
		warning_lines(lost.buf);
		strbuf_release(&lost);
	}
	fprintf(stderr, "%s v%d: %zu mail%s to %zu, cc %zu%s\n", s.name,
		v->number, res.nr, res.nr == 1 ? "" : "s", rc.nr_to, rc.nr_cc,
		so.ran_get_maintainer ? " (with scripts/get_maintainer.pl)" : "");

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
		/*
		 * No Cc of git's own from the mails (authors, tags, Cc:
		 * lines): respin added them, so the list is exactly what
		 * --dry-run --json shows, and git's address parser never
		 * reads a name from mail.
		 */
		sargv[na++] = "--suppress-cc=all";
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
	sendto_remove_mails(dir.buf, &res);
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
fail_dir:
	sendto_remove_mails(dir.buf, &res);
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
	return r;
}
