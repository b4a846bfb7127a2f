// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin track NAME [--base REF] [--tip REV] [--version N]
 * respin track NAME --from-b4 BRANCH
 *
 * Records REF..TIP as the next version of series NAME; or every version
 * of a "b4 prep" branch: the sent ones from their sent/ tags, and the
 * one being worked on from the branch.
 */
#include "series/b4.h"
#include "series/range.h"
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
	NULL
};

/* The full name of the ref REF means (refs/heads/x), else REF itself. */
static char *base_ref_name(git_repository *repo, const char *rev)
{
	git_reference *ref = NULL;
	char *r;

	if (git_reference_dwim(&ref, repo, rev) < 0)
		return xstrdup(rev);
	r = xstrdup(git_reference_name(ref));
	git_reference_free(ref);
	return r;
}

/*
 * Moves what nv collected (base, tip, patches) into version number of
 * s and fills in when and from where; nv keeps only its extra lines.
 */
static struct series_version *version_record(struct series *s, int number,
					     struct series_version *nv,
					     const char *base_ref,
					     const char *source)
{
	struct series_version *v = series_version_add(s, number);

	v->base = nv->base;
	v->tip = nv->tip;
	v->patches = nv->patches;
	v->nr_patches = nv->nr_patches;
	v->alloc_patches = nv->alloc_patches;
	nv->patches = NULL;
	nv->nr_patches = nv->alloc_patches = 0;
	v->base_ref = base_ref ? xstrdup(base_ref) : NULL;
	v->recorded = repo_now();
	v->source = xstrdup(source);
	v->loaded = 1;
	return v;
}

/* The members every --json report of a version has. */
static void json_version_members(struct json *j, const struct series_version *v)
{
	json_int_member(j, "version", v->number);
	json_int_member(j, "patches", (int64_t)v->nr_patches);
	json_string_member(j, "base", oid_short(&v->base, 40));
	json_string_member(j, "tip", oid_short(&v->tip, 40));
}

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

enum b4_action {
	B4_RECORDED,	/* a new version */
	B4_REPLACED,	/* an unsent version recorded from the branch before */
	B4_UPDATED,	/* same patches; Message-IDs or cover letter added */
	B4_UNCHANGED,	/* recorded already, as it is */
	B4_SKIPPED,	/* the branch is a sent version, unchanged */
};

static const char *const b4_action_names[] = {
	"recorded", "replaced", "updated", "unchanged", "skipped",
};

struct b4_outcome {
	enum b4_action action;
	struct b4_version *bv;
	int same_as;		/* B4_SKIPPED: the sent version it equals */
};

/* Whether version v's stored cover letter is text. */
static int cover_is(git_repository *repo, const struct series *s,
		    const struct series_version *v, const char *text,
		    int *same)
{
	struct strbuf old = STRBUF_INIT;
	int r = series_version_text(repo, s, v, SERIES_TEXT_COVER, &old);

	*same = 0;
	if (r == RESPIN_ENOTFOUND)
		r = 0;
	else if (!r)
		*same = !strcmp(old.buf, text);
	strbuf_release(&old);
	return r;
}

/* Adds what b4 knows and v lacks (or has otherwise); *changed says if. */
static int b4_update(git_repository *repo, const struct series *s,
		     struct series_version *v, struct b4_version *bv,
		     int *changed)
{
	size_t i;
	int same, r;

	*changed = 0;
	if (bv->message_id && (!v->message_id ||
			       strcmp(v->message_id, bv->message_id))) {
		free(v->message_id);
		v->message_id = xstrdup(bv->message_id);
		*changed = 1;
	}
	for (i = 0; i < v->nr_patches && i < bv->v.nr_patches; i++) {
		const char *id = bv->v.patches[i].message_id;

		if (id && (!v->patches[i].message_id ||
			   strcmp(v->patches[i].message_id, id))) {
			free(v->patches[i].message_id);
			v->patches[i].message_id = xstrdup(id);
			*changed = 1;
		}
	}
	if (bv->cover) {
		r = cover_is(repo, s, v, bv->cover, &same);
		if (r < 0)
			return r;
		if (!same) {
			series_version_set_text(v, SERIES_TEXT_COVER, bv->cover,
					      strlen(bv->cover));
			*changed = 1;
		}
	}
	/* a version seen on the branch that went out: say it was sent */
	if (*changed && bv->sent && v->source &&
	    !strncmp(v->source, "b4 branch ", 10)) {
		free(v->source);
		v->source = xstrdup(bv->v.source);
	}
	return 0;
}

static void b4_print(const struct series *s, const struct b4_branch *b,
		     const struct b4_outcome *out, size_t nr, int recorded)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct b4_version *bv = out[i].bv;
		const struct series_version *v;
		size_t np;

		v = series_version_find((struct series *)s, bv->number);
		np = v ? v->nr_patches : bv->v.nr_patches;
		switch (out[i].action) {
		case B4_RECORDED:
		case B4_REPLACED:
			printf("%s v%d: %zu patch%s from %s on %s", s->name,
			       bv->number, np, np == 1 ? "" : "es", bv->where,
			       oid_short(&v->base, 12));
			if (bv->message_id)
				printf(", sent as <%s>",
				       term_safe(bv->message_id));
			else if (!bv->sent)
				printf(", not sent yet");
			if (out[i].action == B4_REPLACED)
				printf(" (replaces the unsent v%d recorded "
				       "before)", bv->number);
			putchar('\n');
			break;
		case B4_UPDATED:
			printf("%s v%d: same %zu patch%s; %s%s updated from "
			       "%s\n", s->name, bv->number, np,
			       np == 1 ? "" : "es", bv->message_id ?
			       "Message-IDs and " : "", "cover letter",
			       bv->where);
			break;
		case B4_UNCHANGED:
			printf("%s v%d already has %s %zu patch%s from %s; "
			       "nothing recorded\n", s->name, bv->number,
			       np == 1 ? "this" : "these", np,
			       np == 1 ? "" : "es", bv->where);
			break;
		case B4_SKIPPED:
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

static void b4_print_json(const struct series *s,
			  const struct b4_branch *b,
			  const struct b4_outcome *out, size_t nr)
{
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
		if (out[i].action == B4_SKIPPED)
			v = &bv->v;
		json_object_begin(&j);
		json_version_members(&j, v);
		json_string_member(&j, "action", b4_action_names[out[i].action]);
		json_string_member(&j, "from", bv->where);
		json_bool_member(&j, "sent", bv->sent);
		json_string_or_null(&j, "message_id", bv->message_id);
		json_bool_member(&j, "cover", bv->cover != NULL);
		if (out[i].action == B4_SKIPPED)
			json_int_member(&j, "same_as", out[i].same_as);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	puts(buf.buf);
	strbuf_release(&buf);
}

static int track_from_b4(struct command_context *ctx, const char *name,
			 const char *branch, int json)
{
	git_repository *repo = ctx->repo;
	struct b4_branch b;
	struct b4_outcome *out = NULL;
	struct series s;
	struct strbuf msg = STRBUF_INIT, list = STRBUF_INIT;
	git_oid *keep = NULL;
	size_t nkeep = 0, i;
	int r, recorded = 0;

	memset(&s, 0, sizeof(s));
	r = series_name_check(name);
	if (r < 0)
		return error_report(r);
	r = b4_branch_read(repo, branch, &b);
	if (r < 0)
		goto fail;
	r = series_load(repo, name, &s, SERIES_LOAD_ALL);
	if (r == RESPIN_ENOTFOUND) {
		error_clear();
		series_release(&s);
		series_init(&s, name);
	} else if (r < 0) {
		goto fail;
	}
	if (s.change_id && strcmp(s.change_id, b.change_id)) {
		r = error("series '%s' has change-id %s, but branch '%s' has "
			  "%s: they are different series", s.name, s.change_id,
			  b.branch, b.change_id);
		error_hint("record the branch under a name of its own: "
			   "'respin track NEWNAME --from-b4 %s'", b.branch);
		goto fail;
	}

	out = xcalloc(b.nr_versions + 1, sizeof(*out));
	keep = xcalloc(b.nr_versions + 1, sizeof(*keep));
	for (i = 0; i < b.nr_versions; i++) {
		struct b4_version *bv = &b.versions[i];
		struct series_version *old, *v;
		int same = 0, changed;

		out[i].bv = bv;
		if (bv->same_as) {
			out[i].action = B4_SKIPPED;
			out[i].same_as = bv->same_as;
			continue;
		}
		old = series_version_find(&s, bv->number);
		if (old) {
			r = series_version_ensure(repo, &s, old);
			if (!r)
				r = series_version_same_patches(repo, old,
								&bv->v, &same);
			if (r < 0)
				goto fail;
		}
		if (old && same) {
			r = b4_update(repo, &s, old, bv, &changed);
			if (r < 0)
				goto fail;
			out[i].action = changed ? B4_UPDATED : B4_UNCHANGED;
			if (changed)
				strbuf_addf(&list, "%sv%d updated",
					    list.len ? ", " : "", bv->number);
			recorded += changed;
			continue;
		}
		if (old && !(old->source &&
			     !strncmp(old->source, "b4 branch ", 10))) {
			r = error("series '%s' has a v%d already, with other "
				  "patches than %s", s.name, bv->number,
				  bv->where);
			error_hint("'respin show %s@v%d' shows it; record the "
				   "b4 branch under another name: 'respin "
				   "track NEWNAME --from-b4 %s'", s.name,
				   bv->number, b.branch);
			goto fail;
		}
		out[i].action = B4_RECORDED;
		if (old) {
			/* work in progress seen before, changed since */
			size_t at = (size_t)(old - s.versions);

			series_version_release(old);
			memmove(old, old + 1, (s.nr_versions - at - 1) *
				sizeof(*old));
			s.nr_versions--;
			out[i].action = B4_REPLACED;
		}
		v = version_record(&s, bv->number, &bv->v, b.base_ref,
				   bv->v.source);
		v->message_id = bv->message_id ? xstrdup(bv->message_id) : NULL;
		if (bv->cover)
			series_version_set_text(v, SERIES_TEXT_COVER, bv->cover,
					      strlen(bv->cover));
		git_oid_cpy(&keep[nkeep++], &v->tip);
		strbuf_addf(&list, "%sv%d", list.len ? ", " : "", bv->number);
		recorded++;
	}

	if (recorded) {
		if (!s.created)
			s.created = repo_now();
		if (!s.change_id)
			s.change_id = xstrdup(b.change_id);
		if (b.base_ref) {
			free(s.base_ref);
			s.base_ref = xstrdup(b.base_ref);
		}
		strbuf_addf(&msg, "respin: track %s from b4 branch %s (%s)\n",
			    s.name, b.branch, list.buf);
		r = series_save_many(repo, &s, keep, nkeep, msg.buf);
		if (r < 0)
			goto fail;
	}
	if (json)
		b4_print_json(&s, &b, out, b.nr_versions);
	else
		b4_print(&s, &b, out, b.nr_versions, recorded);
	r = 0;
	goto done;
fail:
	r = error_report(r);
done:
	free(out);
	free(keep);
	strbuf_release(&msg);
	strbuf_release(&list);
	b4_branch_release(&b);
	series_release(&s);
	return r;
}

int cmd_track(int argc, const char **argv, struct command_context *ctx)
{
	const char *base_opt = NULL, *tip = NULL, *version_opt = NULL;
	const char *from_b4 = NULL;
	int number = 0, json = 0, exit_code, r, same;
	struct option opts[] = {
		OPT_STRING(0, "base", &base_opt, "ref",
			   "the base the series is written on (remembered)"),
		OPT_STRING(0, "tip", &tip, "rev",
			   "the last patch of the version (default HEAD)"),
		OPT_STRING(0, "version", &version_opt, "n",
			"record as version N (for series sent before respin)"),
		OPT_STRING(0, "from-b4", &from_b4, "branch",
			   "record a b4 prep branch: its sent/ tags and itself"),
		OPT_BOOL(0, "json", &json, "print what was recorded as JSON"),
		OPT_END()
	};
	struct series s;
	struct series_version nv, *latest, *v;
	git_commit *base = NULL, *tipc = NULL;
	struct strbuf msg = STRBUF_INIT, src = STRBUF_INIT;
	char *base_ref = NULL;
	const char *name;
	int n;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give its name");
	name = argv[0];
	if (from_b4) {
		if (base_opt || tip || version_opt)
			return command_usage_error(opts, usage, "--from-b4 "
				"takes the base, the patches and the version "
				"numbers from b4; drop --%s",
				base_opt ? "base" : tip ? "tip" : "version");
		return track_from_b4(ctx, name, from_b4, json);
	}
	if (!tip)
		tip = "HEAD";
	if (version_opt) {
		number = series_version_parse(version_opt);
		if (number < 1)
			return command_usage_error(opts, usage, "--version "
				"wants a number >= 1, such as 3 or v3, not "
				"'%s'", version_opt);
	}

	memset(&nv, 0, sizeof(nv));
	r = series_load(ctx->repo, name, &s, SERIES_LOAD_LATEST);
	if (r == RESPIN_ENOTFOUND) {
		error_clear();
		if (!base_opt) {
			series_release(&s);
			return command_usage_error(opts, usage,
				"series '%s' is new: say what it is based on "
				"with --base REF", name);
		}
		series_release(&s);
		series_init(&s, name);
	} else if (r < 0) {
		series_release(&s);
		return error_report(r);
	}
	if (base_opt) {
		base_ref = base_ref_name(ctx->repo, base_opt);
	} else if (s.base_ref) {
		base_ref = xstrdup(s.base_ref);
	} else {
		series_release(&s);
		return command_usage_error(opts, usage, "series '%s' has no "
					   "base ref: give --base REF", name);
	}

	r = repo_commit_lookup(ctx->repo, base_ref, &base);
	if (r < 0) {
		if (!base_opt)
			error_hint("series '%s' tracks %s; give --base REF if "
				   "it moved", name, base_ref);
		goto fail;
	}
	r = repo_commit_lookup(ctx->repo, tip, &tipc);
	if (r < 0)
		goto fail;

	strbuf_init(&nv.extra, 0);
	r = series_range_collect(ctx->repo, base, tipc, repo_ref_short(base_ref),
				 tip, &nv);
	if (r < 0)
		goto fail;

	latest = series_latest(&s);
	if (latest) {
		r = series_version_same_patches(ctx->repo, latest, &nv, &same);
		if (r < 0)
			goto fail;
		if (same && (!number || number == latest->number)) {
			printf("%s v%d already has these %zu patches; nothing "
			       "recorded\n", s.name, latest->number,
			       nv.nr_patches);
			r = 0;
			goto done;
		}
		if (number && number <= latest->number) {
			r = error_code(RESPIN_EUSAGE, "series '%s' is at v%d "
				       "already; --version must be above it",
				       s.name, latest->number);
			goto fail;
		}
	}
	if (!number)
		number = latest ? latest->number + 1 : 1;

	if (!s.change_id) {
		struct strbuf cid = STRBUF_INIT;

		series_change_id_make(&cid, s.name, repo_now());
		s.change_id = strbuf_detach(&cid, NULL);
		s.created = repo_now();
	}
	free(s.base_ref);
	s.base_ref = xstrdup(base_ref);

	strbuf_addf(&src, "git %s..%s", repo_ref_short(base_ref), tip);
	if (strcmp(tip, oid_short(&nv.tip, GIT_OID_HEXSZ)))
		strbuf_addf(&src, " (%s)", oid_short(&nv.tip, 12));
	v = version_record(&s, number, &nv, base_ref, src.buf);

	strbuf_addf(&msg, "respin: track %s v%d (%zu patches)\n", s.name,
		    number, v->nr_patches);
	r = series_save(ctx->repo, &s, &v->tip, msg.buf);
	if (r < 0)
		goto fail;

	if (json) {
		struct strbuf out = STRBUF_INIT;
		struct json j;

		json_init(&j, &out, 1);
		json_object_begin(&j);
		json_string_member(&j, "series", s.name);
		json_version_members(&j, v);
		json_string_member(&j, "change_id", s.change_id);
		json_string_member(&j, "base_ref", s.base_ref);
		json_object_end(&j);
		puts(out.buf);
		strbuf_release(&out);
	} else {
		printf("%s v%d: %zu patch%s on %s (%s)\n", s.name, number,
		       v->nr_patches, v->nr_patches == 1 ? "" : "es",
		       repo_ref_short(base_ref), oid_short(&v->base, 12));
	}
	r = 0;
	goto done;
fail:
	r = error_report(r);
done:
	series_version_release(&nv);
	git_commit_free(base);
	git_commit_free(tipc);
	free(base_ref);
	strbuf_release(&msg);
	strbuf_release(&src);
	series_release(&s);
	return r;
}
