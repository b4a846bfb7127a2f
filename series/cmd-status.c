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
#include "tools/lib/command.h"
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

struct status_state {
	git_repository *repo;
	struct json *json;
	struct strbuf *out;
	int not_applying;
};

struct series_status {
	const char *base_ref;
	int base_gone;
	git_oid now;
	size_t gained, lost;
	struct apply_result apply;
};

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
	if (!st.base_gone && !st.apply.applies)
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
	struct status_state st = { ctx->repo, NULL, &out, 0 };

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
