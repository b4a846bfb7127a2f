// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin trailers NAME[@vN] [--source SOURCE] [--apply [--dry-run]] [--json]
 *
 * The trailers reviewers gave to a version (and to earlier ones, for
 * patches that did not change), and, with --apply, written into the
 * series' own commits.
 */
#include "review/trailers.h"
#include "series/sent.h"
#include "series/track.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
	"respin trailers <name>[@v<n>] [--source <source>] [--accept-mismatch] [--json]",
	"respin trailers <name>[@v<n>] --apply [--dry-run] [--all] [--accept-mismatch]\n"
	"                [--keep-stale | --drop-stale] [--source <source>]",
	NULL
};

static const char *state_name(enum given_state s)
{
	return s == GIVEN_NEW ? "new" : s == GIVEN_HAVE ? "have" :
	       s == GIVEN_MISMATCH ? "mismatch" : s == GIVEN_STALE ? "stale" :
	       "not-carried";
}

static char state_mark(enum given_state s)
{
	return s == GIVEN_NEW ? '+' : s == GIVEN_HAVE ? '=' :
	       s == GIVEN_MISMATCH ? '?' : s == GIVEN_STALE ? '!' : '-';
}

static void print_text(const struct series *s, const struct series_version *v,
		       const struct trailers_report *r, struct strbuf *out)
{
	size_t i, k, nnew = trailers_count(r, GIVEN_NEW);
	size_t nmis = trailers_count(r, GIVEN_MISMATCH);
	size_t nstale = trailers_count(r, GIVEN_STALE);

	strbuf_addf(out, "%s v%d: %zu trailer%s to add, %zu there already, "
		    "%zu not carried", s->name, v->number, nnew,
		    nnew == 1 ? "" : "s", trailers_count(r, GIVEN_HAVE),
		    trailers_count(r, GIVEN_NOT_CARRIED));
	if (nmis)
		strbuf_addf(out, ", %zu mismatched", nmis);
	if (nstale)
		strbuf_addf(out, ", %zu stale", nstale);
	strbuf_addch(out, '\n');
	for (i = 0; i < r->nr; i++) {
		if (!r->patches[i].nr)
			continue;
		strbuf_addf(out, "%zu/%zu %s\n", i + 1, r->nr,
			    term_safe(v->patches[i].subject));
		for (k = 0; k < r->patches[i].nr; k++) {
			const struct given *g = &r->patches[i].items[k];

			strbuf_addf(out, "    %c %s: %s", state_mark(g->state),
				    term_safe(g->key), term_safe(g->value));
			if (g->given_to)
				strbuf_addf(out, "  (v%d %zu/%zu", g->version,
					    g->given_to, g->given_total);
			else
				strbuf_addf(out, "  (v%d cover letter",
					    g->version);
			strbuf_addf(out, ", <%s>", term_safe(g->msgid));
			if (g->state == GIVEN_NOT_CARRIED) {
				size_t wl = strlen(g->why);

				/* "its diff changed since v1" */
				strbuf_addf(out, "; not carried: %s", g->why);
				if (wl > 5 && !strcmp(g->why + wl - 5, "since"))
					strbuf_addf(out, " v%d", g->version);
			}
			else if (g->state == GIVEN_HAVE)
				strbuf_addstr(out, "; there already");
			else if (g->state == GIVEN_MISMATCH)
				strbuf_addf(out, "; sent by %s: not applied "
					    "without --accept-mismatch",
					    term_safe(g->from));
			else if (g->state == GIVEN_STALE)
				strbuf_addf(out, "; given on v%d before "
					    "%zu/%zu's code changed",
					    g->version, i + 1, r->nr);
			strbuf_addstr(out, ")\n");
		}
	}
}

static void print_json(const struct series *s, const struct series_version *v,
		       const struct trailers_report *r, struct strbuf *out)
{
	struct json j;
	size_t i, k;

	json_init(&j, out, 1);
	json_object_begin(&j);
	json_string_member(&j, "series", s->name);
	json_int_member(&j, "version", v->number);
	json_key(&j, "patches");
	json_array_begin(&j);
	for (i = 0; i < r->nr; i++) {
		json_object_begin(&j);
		json_int_member(&j, "index", (int64_t)i + 1);
		json_string_member(&j, "subject", v->patches[i].subject);
		json_key(&j, "trailers");
		json_array_begin(&j);
		for (k = 0; k < r->patches[i].nr; k++) {
			const struct given *g = &r->patches[i].items[k];

			json_object_begin(&j);
			json_string_member(&j, "key", g->key);
			json_string_member(&j, "value", g->value);
			json_string_member(&j, "state", state_name(g->state));
			json_int_member(&j, "given_to_version", g->version);
			json_int_member(&j, "given_to_patch", (int64_t)g->given_to);
			json_string_member(&j, "message_id", g->msgid);
			json_string_member(&j, "from", g->from);
			if (g->why)
				json_string_member(&j, "why", g->why);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_key(&j, "notes");
	json_array_begin(&j);
	json_string_lines(&j, r->notes.buf);
	json_array_end(&j);
	json_object_end(&j);
	strbuf_addch(out, '\n');
}

/*
 * What trailers_apply() did to v: br the branch it moved (empty:
 * nothing to write) to tip, nc commits written; recorded as a version
 * when versions are numbered by what was sent.
 */
static int print_applied(git_repository *repo, struct series *s,
			 struct series_version *v, const struct strbuf *br,
			 const git_oid *tip, size_t nc, int dry_run)
{
	struct series_version *nv;
	int revised, from = v->number, r;
	git_oid old = v->tip;

	if (!br->len)
		printf("%s v%d: nothing to write\n", s->name, v->number);
	else if (dry_run)
		printf("%s v%d: would write trailers into %zu commit%s and move "
		       "%s; nothing written\n", s->name, v->number, nc,
		       nc == 1 ? "" : "s", repo_ref_short(br->buf));
	else if (!series_numbering_by_sent(repo))
		printf("%s v%d: trailers written into %zu commit%s; %s moved "
		       "%s..%s (respin track records it as a new version)\n",
		       s->name, v->number, nc, nc == 1 ? "" : "s",
		       repo_ref_short(br->buf), oid_short(&v->tip, 12),
		       oid_short(tip, 12));
	else {
		r = track_rewritten(repo, s, v, tip, "trailers --apply",
				    &nv, &revised);
		if (r < 0) {
			error_hint("%s moved; 'respin track %s' records it",
				   repo_ref_short(br->buf), s->name);
			return r;
		}
		printf("%s v%d: trailers written into %zu commit%s; %s moved "
		       "%s..%s; ", s->name, from, nc, nc == 1 ? "" : "s",
		       repo_ref_short(br->buf), oid_short(&old, 12),
		       oid_short(tip, 12));
		if (revised)
			printf("v%d revised (not sent yet)\n", nv->number);
		else
			printf("recorded as v%d (v%d was sent)\n", nv->number,
			       from);
	}
	return 0;
}

/*
 * --apply: the new trailers of rep written into v's commits as the
 * user (user.email) sends them, and what was done said.
 */
static int apply_trailers(git_repository *repo, struct series *s,
			  struct series_version *v,
			  const struct trailers_report *rep,
			  struct trailers_apply_opts *o, int keep_stale)
{
	struct strbuf br = STRBUF_INIT;
	char *owner = NULL, *who = NULL;
	size_t nc = 0, nstale = trailers_count(rep, GIVEN_STALE);
	git_oid tip;
	int r;

	repo_user(repo, &who, &owner);
	free(who);
	if (!owner) {
		error("whose commits are these? user.email is not set");
		error_hint("git config user.email you@example.org");
		return RESPIN_ERR;
	}
	fflush(stdout);
	if (nstale && !keep_stale && !o->drop_stale) {
		error("%zu trailer%s in the commits %s given before the "
		      "patch's code changed (marked '!'): the reviewer saw "
		      "other code; nothing was changed", nstale,
		      nstale == 1 ? "" : "s", nstale == 1 ? "was" : "were");
		error_hint("--keep-stale keeps them, --drop-stale takes them "
			   "out (ask the reviewer to look again)");
		r = RESPIN_ERR;
		goto out;
	}
	o->owner = owner;
	r = trailers_apply(repo, v, rep, o, &br, &tip, &nc);
	if (!r)
		r = print_applied(repo, s, v, &br, &tip, nc, o->dry_run);
out:
	free(owner);
	strbuf_release(&br);
	return r;
}

int cmd_trailers(int argc, const char **argv, struct command_context *ctx)
{
	int apply = 0, dry_run = 0, json = 0, refresh = 0, exit_code, n, r;
	int all = 0, accept_mismatch = 0, keep_stale = 0, drop_stale = 0;
	const char *source = NULL;
	struct option opts[] = {
		OPT_STRING(0, "source", &source, "source",
			   "where the replies are (default: where the version "
			   "came from, else lore)"),
		OPT_BOOL(0, "apply", &apply,
			 "write the new trailers into the series' commits"),
		OPT_BOOL(0, "dry-run", &dry_run,
			 "with --apply: say what would be written; write nothing"),
		OPT_BOOL(0, "all", &all, "with --apply: also into patches "
			 "you do not send (not signed off last nor committed "
			 "by you)"),
		OPT_BOOL(0, "accept-mismatch", &accept_mismatch,
			 "take trailers whose name and address are not the "
			 "sender's (b4 -S)"),
		OPT_BOOL(0, "keep-stale", &keep_stale, "with --apply: keep "
			 "trailers given before the patch's code changed"),
		OPT_BOOL(0, "drop-stale", &drop_stale, "with --apply: take "
			 "out trailers given before the patch's code changed"),
		OPT_BOOL(0, "json", &json, "print JSON"),
		OPT_BOOL(0, "refresh", &refresh,
			 "fetch lore: threads again, ignoring the cache"),
		OPT_END()
	};
	struct series s;
	struct series_version *v;
	struct trailers_report rep = { 0 };
	struct strbuf src = STRBUF_INIT, out = STRBUF_INIT;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give NAME[@vN]");
	if ((dry_run || all || keep_stale || drop_stale) && !apply)
		return command_usage_error(opts, usage, "--%s goes with "
					   "--apply", dry_run ? "dry-run" :
					   all ? "all" : keep_stale ?
					   "keep-stale" : "drop-stale");
	if (keep_stale && drop_stale)
		return command_usage_error(opts, usage, "--keep-stale or "
					   "--drop-stale: not both");
	r = series_load_spec(ctx->repo, argv[0], &s, &v);
	if (r < 0) {
		series_release(&s);	/* it is set up even when it fails */
		return error_report(r);
	}
	if (source)
		strbuf_addstr(&src, source);
	else
		trailers_default_source(&s, v, &src);
	r = trailers_collect(ctx->repo, &s, v, src.buf, refresh, &rep);
	if (r < 0)
		goto fail;
	if (accept_mismatch)
		trailers_accept_mismatch(&rep);
	if (json)
		print_json(&s, v, &rep, &out);
	else
		print_text(&s, v, &rep, &out);
	fwrite(out.buf, 1, out.len, stdout);
	if (!json && rep.notes.len)
		command_notes(rep.notes.buf);
	if (apply) {
		struct trailers_apply_opts o = {
			.dry_run = dry_run, .all = all,
			.drop_stale = drop_stale,
		};

		r = apply_trailers(ctx->repo, &s, v, &rep, &o, keep_stale);
		if (r < 0)
			goto fail;
	}
	r = 0;
	goto out;
fail:
	r = error_report(r);
out:
	trailers_report_release(&rep);
	series_release(&s);
	strbuf_release(&src);
	strbuf_release(&out);
	return r;
}
