// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin diff NAME [vA vB]: a range-diff between two recorded versions
 * of a series (without versions: the one before the latest against the
 * latest).
 */
#include "series/rangediff.h"
#include "series/store.h"
#include "tools/lib/command.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
	"respin diff <name> [<vA> <vB>] [--creation-factor <n>] [-s] [--json]",
	NULL
};

/* Builds the range-diff texts of every patch of a version. */
static int load_patches(git_repository *repo, const git_mailmap *mailmap,
			const struct series *s, const struct series_version *v,
			struct rangediff_patch **out, size_t *nr)
{
	struct rangediff_patch *p;
	size_t i;

	*out = NULL;
	*nr = 0;
	for (i = 0; i < v->nr_patches; i++)
		if (git_oid_is_zero(&v->patches[i].commit))
			return error("v%d of %s has patches without commits "
				     "(known only from mail); respin diff "
				     "needs commits for now", v->number,
				     s->name);
	p = xcalloc(v->nr_patches ? v->nr_patches : 1, sizeof(*p));
	*out = p;
	for (i = 0; i < v->nr_patches; i++) {
		git_commit *commit;
		int r;

		if (git_commit_lookup(&commit, repo, &v->patches[i].commit) < 0)
			return error_git("cannot read commit %s (patch %zu of "
					 "v%d of %s)",
					 oid_short(&v->patches[i].commit, 12),
					 i + 1, v->number, s->name);
		r = rangediff_patch_from_commit(repo, commit, mailmap, &p[i]);
		git_commit_free(commit);
		*nr = i + 1;
		if (r < 0)
			return r;
	}
	return 0;
}

static void free_patches(struct rangediff_patch *p, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		rangediff_patch_release(&p[i]);
	free(p);
}

static void patch_json(struct json *j, const char *side,
		       const struct rangediff_patch *p, int index)
{
	char key[16];

	json_key(j, side);
	if (p)
		json_int(j, index + 1);
	else
		json_null(j);
	snprintf(key, sizeof(key), "%s_commit", side);
	json_key(j, key);
	if (p)
		json_string(j, oid_short(&p->oid, GIT_OID_HEXSZ));
	else
		json_null(j);
	snprintf(key, sizeof(key), "%s_subject", side);
	json_key(j, key);
	if (p)
		json_string(j, p->subject);
	else
		json_null(j);
}

static void diff_json(const struct series *s, int va, int vb,
		      const struct rangediff *rd, struct strbuf *out)
{
	struct json j;
	size_t k;
	char status[2] = { 0, 0 };

	json_init(&j, out, 1);
	json_object_begin(&j);
	json_string_member(&j, "series", s->name);
	json_int_member(&j, "from", va);
	json_int_member(&j, "to", vb);
	json_key(&j, "pairs");
	json_array_begin(&j);
	for (k = 0; k < rd->nr_pairs; k++) {
		const struct rangediff_pair *p = &rd->pairs[k];

		json_object_begin(&j);
		status[0] = p->status;
		json_string_member(&j, "status", status);
		patch_json(&j, "a", p->a >= 0 ? &rd->a[p->a] : NULL, p->a);
		patch_json(&j, "b", p->b >= 0 ? &rd->b[p->b] : NULL, p->b);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	strbuf_addch(out, '\n');
}

/* Picks the two versions: both given, or the two newest up to spec's. */
static int pick_versions(struct series *s, struct series_version *latest,
			 const char *arg_a, const char *arg_b,
			 struct series_version **va, struct series_version **vb)
{
	size_t i;
	int r;

	if (arg_a) {
		r = series_version_get(s, series_version_parse(arg_a), va);
		if (!r)
			r = series_version_get(s, series_version_parse(arg_b),
					       vb);
		return r;
	}
	*vb = latest;
	for (i = 0; i < s->nr_versions; i++)
		if (&s->versions[i] == latest)
			break;
	if (i == 0 || i == s->nr_versions)
		return error("%s has no version before v%d to compare with",
			     s->name, latest->number);
	*va = &s->versions[i - 1];
	return 0;
}

int cmd_diff(int argc, const char **argv, struct command_context *ctx)
{
	int json = 0, no_patch = 0, exit_code, n, r;
	int creation_factor = RANGEDIFF_CREATION_FACTOR;
	struct option opts[] = {
		OPT_INT(0, "creation-factor", &creation_factor, "n",
			"percentage by which creating a patch is weighted "
			"(default 60)"),
		OPT_BOOL('s', "no-patch", &no_patch,
			 "show the pairing lines only"),
		OPT_BOOL(0, "json", &json, "print the pairs as JSON"),
		OPT_END()
	};
	struct rangediff_patch *pa = NULL, *pb = NULL;
	size_t na = 0, nb = 0;
	struct strbuf out = STRBUF_INIT;
	struct rangediff rd = { 0 };
	struct series s;
	struct series_version *latest, *va = NULL, *vb = NULL;
	git_mailmap *mailmap = NULL;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n == 0)
		return command_usage_error(opts, usage,
					   "which series? give NAME [vA vB]");
	if (n == 2)
		return command_usage_error(opts, usage,
					   "give two versions, or none");
	if (n > 3)
		return command_usage_error(opts, usage, "too many arguments");
	if (n == 3 && (series_version_parse(argv[1]) < 0 ||
		       series_version_parse(argv[2]) < 0))
		return command_usage_error(opts, usage,
					   "not a version: '%s' (give vN or N)",
					   series_version_parse(argv[1]) < 0 ?
					   argv[1] : argv[2]);
	if (creation_factor < 0)
		return command_usage_error(opts, usage,
					   "--creation-factor must be 0 or more");

	r = series_load_spec(ctx->repo, argv[0], &s, &latest);
	if (!r)
		r = pick_versions(&s, latest, n == 3 ? argv[1] : NULL,
				  n == 3 ? argv[2] : NULL, &va, &vb);
	/* git log maps authors through .mailmap by default; so do we */
	if (!r && git_mailmap_from_repository(&mailmap, ctx->repo) < 0)
		mailmap = NULL;
	if (!r)
		r = load_patches(ctx->repo, mailmap, &s, va, &pa, &na);
	if (!r)
		r = load_patches(ctx->repo, mailmap, &s, vb, &pb, &nb);
	if (!r)
		r = rangediff_compute(pa, na, pb, nb, creation_factor, &rd);
	if (!r) {
		if (json)
			diff_json(&s, va->number, vb->number, &rd, &out);
		else
			r = rangediff_print(&rd, no_patch ? RANGEDIFF_NO_PATCH
					    : 0, &out);
	}
	if (!r)
		fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
	rangediff_release(&rd);
	free_patches(pa, na);
	free_patches(pb, nb);
	series_release(&s);
	git_mailmap_free(mailmap);
	return r < 0 ? error_report(r) : 0;
}
