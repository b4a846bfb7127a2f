// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin status [NAME...] [--json]
 *
 * For each series: what its tracked base gained since the latest
 * version was recorded, and whether that version still applies on the
 * base as it is now (checked in memory, nothing checked out).
 */
#include "series/apply.h"
#include "series/store.h"
#include "series/treescan.h"
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
	"respin status [<name>...] [--json]",
	NULL
};

/* An integration branch scanned once, for every series on it. */
struct scanned {
	char *ref;
	struct tree_scan t;
	int ok;
};

struct status_state {
	git_repository *repo;
	struct json *json;
	struct strbuf *out;
	int not_applying;
	struct scanned *scans;
	size_t nr_scans, alloc_scans;
};

static const struct tree_scan *scan_of(struct status_state *state,
				       const char *ref)
{
	struct scanned *sc;
	size_t i;

	for (i = 0; i < state->nr_scans; i++)
		if (!strcmp(state->scans[i].ref, ref))
			return state->scans[i].ok ? &state->scans[i].t : NULL;
	ALLOC_GROW(state->scans, state->nr_scans + 1, state->alloc_scans);
	sc = &state->scans[state->nr_scans++];
	sc->ref = xstrdup(ref);
	sc->ok = !tree_scan(state->repo, ref, NULL, 20000, &sc->t);
	if (!sc->ok) {
		tree_scan_release(&sc->t);
		error_clear();	/* status goes on without it */
	}
	return sc->ok ? &sc->t : NULL;
}

struct series_status {
	const char *base_ref;
	int base_gone;
	git_oid now;
	size_t gained, lost;
	struct apply_result apply;
	/* a version of the series found inside the base, or NULL */
	const struct tree_scan *scan;
	const struct tree_found *in;
	git_oid next_base;	/* the commit before its first patch */
};

/* The series inside its base (mm-unstable took it): which version. */
static void status_in_base(struct status_state *state, const struct series *s,
			   struct series_status *st)
{
	const struct tree_found *f;

	if (st->base_gone || !st->gained)
		return;	/* what it was recorded on cannot hold it */
	st->scan = scan_of(state, st->base_ref);
	if (!st->scan || !(f = tree_scan_find(st->scan, s->name)))
		return;
	st->in = f;
	if (f->first)
		git_oid_cpy(&st->next_base, &st->scan->commits[f->first - 1].oid);
	else
		git_oid_cpy(&st->next_base, &st->scan->base);
}

/* "v2 is in mm-unstable (3/3 patches, 1 with a fixup)" */
static void in_base_text(struct strbuf *out, const struct series_status *st,
			 const struct series_version *v, const char *base)
{
	const struct tree_found *f = st->in;
	size_t i, fixed = 0;
	unsigned char *has = xcalloc(f->v->nr_patches + 1, 1);

	for (i = 0; i < st->scan->nr; i++) {
		const struct tree_commit *c = &st->scan->commits[i];

		if (c->fixup && c->found == (int)(f - st->scan->found) &&
		    !has[c->patch]) {
			has[c->patch] = 1;
			fixed++;
		}
	}
	free(has);
	strbuf_addf(out, "v%d is in %s (%zu/%zu patches", f->v->number, base,
		    f->nr_matched, f->v->nr_patches);
	if (fixed)
		strbuf_addf(out, ", %zu with a fixup", fixed);
	if (f->nr_changed)
		strbuf_addf(out, ", %zu changed", f->nr_changed);
	strbuf_addf(out, "); base v%d on %s (respin rebase --onto %s)",
		    v->number + 1, oid_short(&st->next_base, 12),
		    oid_short(&st->next_base, 12));
}

static int status_compute(git_repository *repo, struct series *s,
			  struct series_version *v, struct series_status *st)
{
	git_commit *now = NULL;
	int r;

	memset(st, 0, sizeof(*st));
	st->base_ref = s->base_ref ? s->base_ref : v->base_ref;
	if (!st->base_ref || git_oid_is_zero(&v->base)) {
		st->base_gone = 1;
		return 0;
	}
	r = repo_commit_lookup(repo, st->base_ref, &now);
	if (r < 0) {
		error_clear();
		st->base_gone = 1;
		return 0;
	}
	git_oid_cpy(&st->now, git_commit_id(now));
	git_commit_free(now);
	if (git_graph_ahead_behind(&st->gained, &st->lost, repo, &st->now,
				   &v->base) < 0)
		return error_git("cannot compare %s with v%d's base",
				 st->base_ref, v->number);
	return series_apply_check(repo, v, &st->now, &st->apply);
}

static void status_text(struct strbuf *out, const struct series *s,
			const struct series_version *v,
			const struct series_status *st)
{
	const char *base = st->base_ref ?
			   term_safe(repo_ref_short(st->base_ref)) : "?";

	strbuf_addf(out, "%s v%d (%zu patch%s) on %s: ", term_safe(s->name),
		    v->number,
		    v->nr_patches, v->nr_patches == 1 ? "" : "es", base);
	if (st->base_gone) {
		if (git_oid_is_zero(&v->base))
			strbuf_addstr(out, "no base recorded (mail only)\n");
		else
			strbuf_addf(out, "base %s is gone; 'respin track %s "
				    "--base REF' to follow another\n", base,
				    term_safe(s->name));
		return;
	}
	if (!st->gained && !st->lost)
		strbuf_addstr(out, "base unchanged");
	else
		strbuf_addf(out, "base gained %zu commit%s", st->gained,
			    st->gained == 1 ? "" : "s");
	if (st->lost)
		strbuf_addf(out, " and lost %zu (rewritten)", st->lost);
	if (st->gained || st->lost)
		strbuf_addf(out, " since v%d", v->number);
	if (st->in) {
		strbuf_addstr(out, "; ");
		in_base_text(out, st, v, base);
		if (st->in->v->number < v->number)
			strbuf_addf(out, "; v%d %s", v->number,
				    st->apply.applies ? "applies cleanly" :
				    "does not apply");
		strbuf_addch(out, '\n');
		return;
	}
	if (st->apply.applies) {
		strbuf_addstr(out, "; applies cleanly\n");
		return;
	}
	strbuf_addf(out, "; patch %zu/%zu \"%s\" does not apply",
		    st->apply.failed + 1, v->nr_patches,
		    term_safe(v->patches[st->apply.failed].subject));
	if (st->apply.path)
		strbuf_addf(out, " (%s: %s)", term_safe(st->apply.path),
			    term_safe(st->apply.reason));
	else if (st->apply.reason)
		strbuf_addf(out, " (%s)", term_safe(st->apply.reason));
	strbuf_addch(out, '\n');
}

static void status_json(struct json *j, const struct series *s,
			const struct series_version *v,
			const struct series_status *st)
{
	json_object_begin(j);
	json_string_member(j, "name", s->name);
	json_int_member(j, "version", v->number);
	json_int_member(j, "patches", (int64_t)v->nr_patches);
	json_string_member(j, "base_ref", st->base_ref);
	json_key(j, "recorded_base");
	if (git_oid_is_zero(&v->base))
		json_null(j);
	else
		json_string(j, oid_short(&v->base, GIT_OID_HEXSZ));
	json_key(j, "base_now");
	if (st->base_gone)
		json_null(j);
	else
		json_string(j, oid_short(&st->now, GIT_OID_HEXSZ));
	json_int_member(j, "gained", (int64_t)st->gained);
	json_int_member(j, "lost", (int64_t)st->lost);
	json_key(j, "applies");
	if (st->base_gone)
		json_null(j);
	else
		json_bool(j, st->apply.applies);
	json_key(j, "in_base");
	if (st->in) {
		json_object_begin(j);
		json_int_member(j, "version", st->in->v->number);
		json_int_member(j, "matched", (int64_t)st->in->nr_matched);
		json_int_member(j, "patches", (int64_t)st->in->v->nr_patches);
		json_int_member(j, "changed", (int64_t)st->in->nr_changed);
		json_int_member(j, "fixups", (int64_t)st->in->nr_fixups);
		json_string_member(j, "next_base", oid_short(&st->next_base, 40));
		json_object_end(j);
	} else {
		json_null(j);
	}
	if (!st->base_gone && !st->apply.applies) {
		const struct series_patch *p = &v->patches[st->apply.failed];

		json_key(j, "first_failing");
		json_object_begin(j);
		json_int_member(j, "index", (int64_t)st->apply.failed + 1);
		json_string_member(j, "subject", p->subject);
		json_string_member(j, "commit", oid_short(&p->commit, 40));
		json_string_member(j, "path", st->apply.path);
		json_string_member(j, "reason", st->apply.reason);
		json_object_end(j);
	}
	json_object_end(j);
}

static int status_one(const char *name, void *data)
{
	struct status_state *state = data;
	struct series s;
	struct series_version *v;
	struct series_status st;
	int r;

	r = series_load(state->repo, name, &s, SERIES_LOAD_LATEST);
	if (r < 0)
		goto out;
	v = series_latest(&s);
	if (!v)
		goto out;
	r = status_compute(state->repo, &s, v, &st);
	if (r < 0) {
		apply_result_release(&st.apply);
		goto out;
	}
	status_in_base(state, &s, &st);
	/* taken into the base: that it does not apply again is no news */
	if (!st.base_gone && !st.apply.applies &&
	    !(st.in && st.in->v->number == v->number))
		state->not_applying++;
	if (state->json)
		status_json(state->json, &s, v, &st);
	else
		status_text(state->out, &s, v, &st);
	apply_result_release(&st.apply);
out:
	series_release(&s);
	return r;
}

int cmd_status(int argc, const char **argv, struct command_context *ctx)
{
	int json = 0, exit_code, n, i, r = 0;
	struct option opts[] = {
		OPT_BOOL(0, "json", &json, "print a JSON array"),
		OPT_END()
	};
	struct strbuf out = STRBUF_INIT;
	struct json j;
	struct status_state st = { ctx->repo, NULL, &out, 0, NULL, 0, 0 };
	size_t k;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (json) {
		json_init(&j, &out, 1);
		st.json = &j;
		json_array_begin(&j);
	}
	if (!n)
		r = series_foreach_name(ctx->repo, status_one, &st);
	for (i = 0; i < n && r >= 0; i++)
		r = status_one(argv[i], &st);
	for (k = 0; k < st.nr_scans; k++) {
		if (st.scans[k].ok)
			tree_scan_release(&st.scans[k].t);
		free(st.scans[k].ref);
	}
	free(st.scans);
	if (r < 0) {
		strbuf_release(&out);
		return error_report(r);
	}
	if (json) {
		json_array_end(&j);
		strbuf_addch(&out, '\n');
	}
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
	return st.not_applying ? RESPIN_FOUND : 0;
}
