// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin track NAME [--base REF] [--tip REV] [--version N]
 * respin track NAME --from-b4 BRANCH
 *
 * Records REF..TIP as the next version of series NAME; or every version
 * of a "b4 prep" branch: the sent ones from their sent/ tags, and the
 * one being worked on from the branch.
 */
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
	"respin track <name> [--base <ref>] [--tip <rev>] [--version <n>]",
	"respin track <name> --from-b4 <branch>",
	"respin track <name>[@v<n>] --mark-sent <message-id>",
	NULL
};

/* The members every --json report of a version has. */
static void json_version_members(struct json *j, const struct series_version *v)
{
	json_int_member(j, "version", v->number);
	json_int_member(j, "patches", (int64_t)v->nr_patches);
	json_string_member(j, "base", oid_short(&v->base, 40));
	json_string_member(j, "tip", oid_short(&v->tip, 40));
}

static const char *const outcome_names[] = {
	[TRACK_NOTHING] = "unchanged",
	[TRACK_RECORDED] = "recorded",
	[TRACK_REVISED] = "revised",
	[TRACK_LINKED] = "linked",
};

static void json_string_or_null(struct json *j, const char *key,
				const char *val)
{
	json_key(j, key);
	if (val)
		json_string(j, val);
	else
		json_null(j);
}

/* ---- --from-b4 ---- */

static const char *const b4_action_names[] = {
	[TRACK_B4_RECORDED] = "recorded",
	[TRACK_B4_REPLACED] = "replaced",
	[TRACK_B4_UPDATED] = "updated",
	[TRACK_B4_UNCHANGED] = "unchanged",
	[TRACK_B4_SKIPPED] = "skipped",
};

static void b4_print(const struct track_b4 *t)
{
	const struct series *s = &t->s;
	const struct b4_branch *b = &t->branch;
	const struct track_b4_outcome *out = t->out;
	size_t nr = t->nr;
	int recorded = t->recorded;
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct b4_version *bv = out[i].bv;
		const struct series_version *v;
		size_t np;

		v = series_version_find((struct series *)s, bv->number);
		np = v ? v->nr_patches : bv->v.nr_patches;
		switch (out[i].action) {
		case TRACK_B4_RECORDED:
		case TRACK_B4_REPLACED:
			printf("%s v%d: %zu patch%s from %s on %s", s->name,
			       bv->number, np, np == 1 ? "" : "es", bv->where,
			       oid_short(&v->base, 12));
			if (bv->message_id)
				printf(", sent as <%s>",
				       term_safe(bv->message_id));
			else if (!bv->sent)
				printf(", not sent yet");
			if (out[i].action == TRACK_B4_REPLACED)
				printf(" (replaces the unsent v%d recorded "
				       "before)", bv->number);
			putchar('\n');
			break;
		case TRACK_B4_UPDATED:
			printf("%s v%d: same %zu patch%s; %s%s updated from "
			       "%s\n", s->name, bv->number, np,
			       np == 1 ? "" : "es", bv->message_id ?
			       "Message-IDs and " : "", "cover letter",
			       bv->where);
			break;
		case TRACK_B4_UNCHANGED:
			printf("%s v%d already has %s %zu patch%s from %s; "
			       "nothing recorded\n", s->name, bv->number,
			       np == 1 ? "this" : "these", np,
			       np == 1 ? "" : "es", bv->where);
			break;
		case TRACK_B4_SKIPPED:
			printf("%s (v%d in b4) holds the patches sent as v%d; "
			       "not recorded as v%d\n", bv->where, bv->number,
			       out[i].same_as, bv->number);
			break;
		}
	}
	if (b->branch_empty)
		printf("%s has no patches for v%d yet\n", b->branch,
		       b->revision);
	if (!recorded && nr)
		printf("nothing recorded: series %s has every version of "
		       "%s already\n", s->name, b->branch);
	else if (!recorded)
		printf("nothing recorded\n");
	if (recorded && b->base_branch && !b->base_ref)
		printf("note: b4's base branch '%s' is not in this "
		       "repository; series %s tracks %s\n", b->base_branch,
		       s->name, s->base_ref ? repo_ref_short(s->base_ref) :
		       "no base ref yet");
}

static void b4_print_json(const struct track_b4 *t)
{
	const struct series *s = &t->s;
	const struct b4_branch *b = &t->branch;
	const struct track_b4_outcome *out = t->out;
	size_t nr = t->nr;
	struct strbuf buf = STRBUF_INIT;
	struct json j;
	size_t i;

	json_init(&j, &buf, 1);
	json_object_begin(&j);
	json_string_member(&j, "series", s->name);
	json_string_member(&j, "branch", b->branch);
	json_string_member(&j, "change_id", s->change_id);
	json_string_or_null(&j, "base_ref", s->base_ref);
	json_int_member(&j, "revision", b->revision);
	json_key(&j, "versions");
	json_array_begin(&j);
	for (i = 0; i < nr; i++) {
		const struct b4_version *bv = out[i].bv;
		const struct series_version *v;

		v = series_version_find((struct series *)s, bv->number);
		if (out[i].action == TRACK_B4_SKIPPED)
			v = &bv->v;
		json_object_begin(&j);
		json_version_members(&j, v);
		json_string_member(&j, "action", b4_action_names[out[i].action]);
		json_string_member(&j, "from", bv->where);
		json_bool_member(&j, "sent", bv->sent);
		json_string_or_null(&j, "message_id", bv->message_id);
		json_bool_member(&j, "cover", bv->cover != NULL);
		if (out[i].action == TRACK_B4_SKIPPED)
			json_int_member(&j, "same_as", out[i].same_as);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	puts(buf.buf);
	strbuf_release(&buf);
}

static int track_b4(struct command_context *ctx, const char *name,
		    const char *branch, int json)
{
	struct track_b4 t;
	int r = track_from_b4(ctx->repo, name, branch, &t);

	if (r < 0)
		r = error_report(r);
	else if (json)
		b4_print_json(&t);
	else
		b4_print(&t);
	track_b4_release(&t);
	return r;
}

/* --mark-sent: the version went out by other means, as msgid. */
static int mark_sent(struct command_context *ctx, const char *spec,
		     const char *msgid)
{
	struct series s;
	struct series_version *v;
	struct strbuf id = STRBUF_INIT, msg = STRBUF_INIT;
	int r;

	strbuf_addstr(&id, msgid + (*msgid == '<'));
	if (id.len && id.buf[id.len - 1] == '>')
		strbuf_setlen(&id, id.len - 1);
	if (!id.len || !strchr(id.buf, '@') || strpbrk(id.buf, " <>\n")) {
		strbuf_release(&id);
		error_code(RESPIN_EUSAGE, "--mark-sent wants the Message-ID "
			   "of the cover letter (or of 1/N) as sent, such as "
			   "<20240101-x-v2-0-abc@example.org>, not '%s'",
			   msgid);
		return error_report(RESPIN_EUSAGE);
	}
	r = series_load_spec(ctx->repo, spec, &s, &v);
	if (!r && series_version_sent(v) && v->message_id &&
	    strcmp(v->message_id, id.buf))
		r = error("%s v%d was sent already as <%s>", s.name, v->number,
			  v->message_id);
	if (!r) {
		series_version_mark_sent(v, id.buf);
		strbuf_addf(&msg, "respin: %s v%d marked sent as <%s>\n",
			    s.name, v->number, id.buf);
		r = series_save(ctx->repo, &s, NULL, msg.buf);
	}
	if (!r)
		printf("%s v%d marked sent as <%s>: the next change recorded "
		       "is v%d\n", s.name, v->number, term_safe(id.buf),
		       series_latest(&s)->number + 1);
	series_release(&s);
	strbuf_release(&id);
	strbuf_release(&msg);
	return r < 0 ? error_report(r) : 0;
}

/* What track_range() recorded (outcome) as v of s, in words or JSON. */
static void print_recorded(const struct series *s,
			   const struct series_version *v,
			   const struct track_request *rq,
			   enum track_outcome recorded, int json)
{
	if (recorded == TRACK_NOTHING) {
		printf("%s v%d already has these %zu patches; nothing "
		       "recorded\n", s->name, v->number, v->nr_patches);
	} else if (json) {
		struct strbuf out = STRBUF_INIT;
		struct json j;

		json_init(&j, &out, 1);
		json_object_begin(&j);
		json_string_member(&j, "series", s->name);
		json_version_members(&j, v);
		json_string_member(&j, "change_id", s->change_id);
		json_string_member(&j, "base_ref", s->base_ref);
		json_string_member(&j, "action", outcome_names[recorded]);
		json_object_end(&j);
		puts(out.buf);
		strbuf_release(&out);
	} else if (recorded == TRACK_LINKED) {
		printf("%s v%d linked: its %zu patch%s are the commits of %s "
		       "(%s) on %s (%s)\n", s->name, v->number, v->nr_patches,
		       v->nr_patches == 1 ? "" : "es", rq->tip,
		       oid_short(&v->tip, 12), repo_ref_short(s->base_ref),
		       oid_short(&v->base, 12));
	} else {
		printf("%s v%d%s: %zu patch%s on %s (%s)%s\n", s->name,
		       v->number, recorded == TRACK_REVISED ? " revised" : "",
		       v->nr_patches, v->nr_patches == 1 ? "" : "es",
		       repo_ref_short(s->base_ref), oid_short(&v->base, 12),
		       recorded == TRACK_REVISED ? "; not sent yet, so "
		       "still this version" : "");
	}
}

int cmd_track(int argc, const char **argv, struct command_context *ctx)
{
	struct track_request rq = { 0 };
	const char *version_opt = NULL, *from_b4 = NULL, *sent_as = NULL;
	int json = 0, exit_code, r;
	enum track_outcome recorded;
	struct option opts[] = {
		OPT_STRING(0, "base", &rq.base, "ref",
			   "the base the series is written on (remembered)"),
		OPT_STRING(0, "tip", &rq.tip, "rev",
			   "the last patch of the version (default HEAD)"),
		OPT_STRING(0, "version", &version_opt, "n",
			"record as version N (for series sent before respin)"),
		OPT_STRING(0, "from-b4", &from_b4, "branch",
			   "record a b4 prep branch: its sent/ tags and itself"),
		OPT_STRING(0, "mark-sent", &sent_as, "message-id",
			   "the version went out (not by respin send) as "
			   "this Message-ID"),
		OPT_BOOL(0, "json", &json, "print what was recorded as JSON"),
		OPT_END()
	};
	struct series s;
	struct series_version *v;
	const char *name;
	int n;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give its name");
	name = argv[0];
	if (sent_as) {
		if (rq.base || rq.tip || version_opt || from_b4)
			return command_usage_error(opts, usage, "--mark-sent "
				"records nothing else; drop --%s", rq.base ?
				"base" : rq.tip ? "tip" : version_opt ?
				"version" : "from-b4");
		return mark_sent(ctx, name, sent_as);
	}
	if (from_b4) {
		if (rq.base || rq.tip || version_opt)
			return command_usage_error(opts, usage, "--from-b4 "
				"takes the base, the patches and the version "
				"numbers from b4; drop --%s",
				rq.base ? "base" : rq.tip ? "tip" : "version");
		return track_b4(ctx, name, from_b4, json);
	}
	if (!rq.tip)
		rq.tip = "HEAD";
	if (version_opt) {
		rq.number = series_version_parse(version_opt);
		if (rq.number < 1)
			return command_usage_error(opts, usage, "--version "
				"wants a number >= 1, such as 3 or v3, not "
				"'%s'", version_opt);
	}

	r = series_load(ctx->repo, name, &s, SERIES_LOAD_LATEST);
	if (r == RESPIN_ENOTFOUND) {
		error_clear();
		series_release(&s);
		if (!rq.base)
			return command_usage_error(opts, usage,
				"series '%s' is new: say what it is based on "
				"with --base REF", name);
		series_init(&s, name);
	} else if (r < 0) {
		series_release(&s);
		return error_report(r);
	}
	if (!rq.base && !s.base_ref) {
		series_release(&s);
		return command_usage_error(opts, usage, "series '%s' has no "
					   "base ref: give --base REF", name);
	}

	r = track_range(ctx->repo, &s, &rq, &v, &recorded);
	if (r < 0)
		r = error_report(r);
	else
		print_recorded(&s, v, &rq, recorded, json);
	series_release(&s);
	return r;
}
