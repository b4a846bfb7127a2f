// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin diff NAME [vA vB]: a range-diff between two recorded versions
 * of a series (without versions: the one before the latest against the
 * latest).  With --results, under each pair, what changed in its
 * stored results.
 */
#include "ci/resultdiff.h"
#include "series/import.h"
#include "series/patchtexts.h"
#include "series/rangediff.h"
#include "series/splits.h"
#include "series/trailerdiff.h"
#include "series/store.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const usage[] = {
	"respin diff <name> [<vA> <vB>] [--creation-factor <n>] [-s] [--json]"
	" [--results] [--no-title-pairs] [--no-splits]",
	"respin diff <mail-a> <mail-b>   (two versions straight from mail)",
	"respin diff <mail>              (its last two versions)",
	NULL
};

/* The patches of version vi of a mailset, as mail_patch. */
static int mailset_version_patches(struct mailset *ms, long vi,
				   struct mail_patch **out, size_t *nr)
{
	struct ms_version *v = &ms->versions[vi];
	struct mail_patch *mps = xcalloc((size_t)v->total, sizeof(*mps));
	long k;
	int r = mailset_load(ms, vi);

	for (k = 0; k < v->total && !r; k++)
		r = mail_patch_from_mailset(ms, vi, k, &mps[k]);
	if (r < 0) {
		mail_patches_free(mps, (size_t)v->total);
		return r;
	}
	*out = mps;
	*nr = (size_t)v->total;
	return 0;
}

/* Opens a mail source and groups it; the one series it must hold. */
static int open_mail(git_repository *repo, const char *spec,
		     struct mail_source **src, struct mailset *ms, long *series)
{
	int r;

	mailset_init(ms, NULL);
	r = mailset_source_open(repo, spec, 0, src);
	if (r < 0)
		return r;
	ms->src = *src;
	r = mailset_scan(ms);
	if (!r)
		r = mailset_group(ms, MAILSET_PATCH_IDS, NULL);
	if (r < 0)
		return r;
	if (ms->nr_series != 1)
		return error("%s holds %zu patch series; respin diff wants "
			     "one", mail_source_describe(*src),
			     ms->nr_series);
	*series = 0;
	return 0;
}

static int is_mail_source(const char *arg)
{
	return !access(arg, R_OK) || !strncmp(arg, "lore:", 5) ||
	       !strncmp(arg, "notmuch:", 8) || !strcmp(arg, "-");
}

/*
 * What is said under a pairing line besides git's: the splits and
 * squashes (splits.h), then the pair's results (--results).
 */
struct diff_notes {
	struct splits sp;
	int find_splits;
	struct diff_results *dr;	/* with results_on: --results */
	int results_on;
	struct trailerdiff td;		/* the tags vB's patches lost */
};

#define TRAILERS_PREFIX "    trailers: "

/* After a pairing line: the tags its vB patch lost (trailerdiff.h). */
static void trailers_after_line(const struct trailerdiff *td,
				const struct rangediff_pair *p,
				struct strbuf *out)
{
	size_t i;

	for (i = 0; p->b >= 0 && i < td->nr; i++) {
		if (td->items[i].b != (size_t)p->b)
			continue;
		strbuf_addstr(out, TRAILERS_PREFIX);
		trailerdiff_describe(td, &td->items[i], out);
		strbuf_addch(out, '\n');
	}
}

static int results_after_line(const struct rangediff *rd, size_t k,
			      struct strbuf *out, void *data);

static int notes_after_line(const struct rangediff *rd, size_t k,
			    struct strbuf *out, void *data)
{
	struct diff_notes *dn = data;
	int r;

	splits_pair_notes(&dn->sp, rd, k, out);
	r = dn->results_on ? results_after_line(rd, k, out, dn->dr) : 0;
	if (!r)
		trailers_after_line(&dn->td, &rd->pairs[k], out);
	return r;
}

/*
 * Pairs as asked (git's, then by title) and finds the splits; rd is
 * computed.
 */
static void diff_notes_find(struct diff_notes *dn, struct rangediff *rd,
			    int title_pairs)
{
	if (title_pairs)
		rangediff_pair_by_title(rd);
	if (dn->find_splits)
		splits_find(rd, &dn->sp);
}

/* respin diff A.mbox B.mbox, or respin diff ALL.mbox */
static int diff_mail(git_repository *repo, int argc, const char **argv,
		     int creation_factor, int title_pairs,
		     struct diff_notes *dn, unsigned flags, struct strbuf *out)
{
	struct mail_source *src[2] = { NULL, NULL };
	struct mailset ms[2];
	struct mail_patch *mp[2] = { NULL, NULL };
	size_t nmp[2] = { 0, 0 }, nrd[2] = { 0, 0 };
	struct rangediff_patch *rp[2] = { NULL, NULL };
	struct rangediff rd = { 0 };
	struct trailerdiff_version tv[2];
	long series[2], vi[2];
	int k, r;

	memset(ms, 0, sizeof(ms));
	trailerdiff_version_init(&tv[0], 0);
	trailerdiff_version_init(&tv[1], 0);
	r = open_mail(repo, argv[0], &src[0], &ms[0], &series[0]);
	if (!r && argc == 2)
		r = open_mail(repo, argv[1], &src[1], &ms[1], &series[1]);
	if (r < 0)
		goto out;
	if (argc == 2) {
		vi[0] = ms[0].series[0].versions[ms[0].series[0].nr - 1];
		vi[1] = ms[1].series[0].versions[ms[1].series[0].nr - 1];
	} else {
		struct ms_series *s = &ms[0].series[0];

		if (s->nr < 2) {
			r = error("%s holds one version of \"%s\"; give two "
				  "mailboxes", mail_source_describe(src[0]),
				  s->title);
			goto out;
		}
		vi[0] = s->versions[s->nr - 2];
		vi[1] = s->versions[s->nr - 1];
	}
	for (k = 0; k < 2 && !r; k++) {
		struct mailset *m = argc == 2 ? &ms[k] : &ms[0];

		r = mailset_version_patches(m, vi[k], &mp[k], &nmp[k]);
		if (!r)
			r = rangediff_patches_from_mail(mp[k], nmp[k], &rp[k], &nrd[k],
					      mail_source_describe(argc == 2 ?
							src[k] : src[0]));
		if (!r)
			trailerdiff_version_from_mailset(&tv[k], m, vi[k]);
	}
	if (!r)
		r = rangediff_compute(rp[0], nrd[0], rp[1], nrd[1],
				      creation_factor, &rd);
	if (!r) {
		diff_notes_find(dn, &rd, title_pairs);
		trailerdiff_compute(&dn->td, &tv[0], &tv[1]);
		r = rangediff_print_with(&rd, flags, out, notes_after_line, dn);
	}
out:
	trailerdiff_version_release(&tv[0]);
	trailerdiff_version_release(&tv[1]);
	rangediff_release(&rd);
	for (k = 0; k < 2; k++) {
		rangediff_patches_free(rp[k], nrd[k]);
		mail_patches_free(mp[k], nmp[k]);
		if (ms[k].msgs || ms[k].src)
			mailset_release(&ms[k]);
		mail_source_free(src[k]);
	}
	return r;
}

/* The stored results of the two versions, for --results. */
struct diff_results {
	struct grid_store st;
	struct grid grid[2];
	int version[2];
	int on;			/* both versions have results */
};

static int results_load_version(git_repository *repo, struct diff_results *dr,
				int side, const struct series_version *v)
{
	dr->version[side] = v->number;
	return grid_load_stored(&dr->grid[side], repo, &dr->st, v);
}

/*
 * Loads both grids; dr->on says whether both versions have results
 * (a note on stderr when not).
 */
static int results_load(git_repository *repo, const struct series *s,
			const struct series_version *va,
			const struct series_version *vb,
			struct diff_results *dr)
{
	int r = grid_store_open(repo, &dr->st);

	if (!r)
		r = results_load_version(repo, dr, 0, va);
	if (!r)
		r = results_load_version(repo, dr, 1, vb);
	if (r < 0)
		return r;
	dr->on = dr->grid[0].any && dr->grid[1].any;
	if (dr->on)
		return 0;
	if (va->number == vb->number)
		fprintf(stderr, "note: no results stored for v%d; run respin "
			"check %s@v%d\n", va->number, s->name, va->number);
	else if (!dr->grid[0].any && !dr->grid[1].any)
		fprintf(stderr, "note: no results stored for v%d or v%d; run "
			"respin check\n", va->number, vb->number);
	else
		fprintf(stderr, "note: no results stored for v%d; run respin "
			"check %s@v%d\n", dr->grid[0].any ? vb->number :
			va->number, s->name, dr->grid[0].any ? vb->number :
			va->number);
	return 0;
}

static void results_release(struct diff_results *dr)
{
	grid_release(&dr->grid[0]);
	grid_release(&dr->grid[1]);
	grid_store_close(&dr->st);
}

static const struct grid *pair_grid(const struct diff_results *dr, int side,
				    int index)
{
	return index >= 0 ? &dr->grid[side] : NULL;
}

static int pair_results(const struct diff_results *dr,
			const struct rangediff_pair *p, struct resultdiff *rd)
{
	return resultdiff_compute(rd, dr->st.rs, &dr->st.checks,
				  pair_grid(dr, 0, p->a), (size_t)(p->a + 1),
				  pair_grid(dr, 1, p->b), (size_t)(p->b + 1));
}

#define RESULTS_PREFIX "    results: "

/* After a pairing line: what changed in the pair's results. */
static int results_after_line(const struct rangediff *rd, size_t k,
			      struct strbuf *out, void *data)
{
	const struct diff_results *dr = data;
	const struct rangediff_pair *p = &rd->pairs[k];
	struct resultdiff d;
	size_t mark = out->len;
	int r;

	if (p->a < 0 || p->b < 0) {
		int side = p->a < 0;
		size_t i = (size_t)(side ? p->b : p->a) + 1;

		strbuf_addstr(out, RESULTS_PREFIX);
		if (grid_patch_line(out, &dr->st.checks, &dr->grid[side], i))
			strbuf_addch(out, '\n');
		else
			strbuf_setlen(out, mark);
		return 0;
	}
	r = pair_results(dr, p, &d);
	if (!r)
		resultdiff_format(&d, dr->version[0], dr->version[1],
				  RESULTS_PREFIX, out);
	resultdiff_release(&d);
	return r;
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

/* "results": the pair's result changes, or null when it has none. */
static int pair_json(struct json *j, const struct diff_results *dr,
		     const struct rangediff_pair *p)
{
	struct resultdiff d = { 0 };
	int r = dr->on ? pair_results(dr, p, &d) : 0;

	json_key(j, "results");
	if (r < 0 || !d.nr)
		json_null(j);
	else
		resultdiff_to_json(&d, j);
	resultdiff_release(&d);
	return r;
}

static int diff_json(const struct series *s, int va, int vb,
		     const struct rangediff *rd, const struct splits *sp,
		     const struct diff_results *dr,
		     const struct trailerdiff *td, struct strbuf *out)
{
	struct json j;
	size_t k, i;
	char status[2] = { 0, 0 };
	int r = 0;

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
		json_key(&j, "paired_by");
		if (p->a < 0 || p->b < 0)
			json_null(&j);
		else
			json_string(&j, p->by_title ? "title" : "range-diff");
		patch_json(&j, "a", p->a >= 0 ? &rd->a[p->a] : NULL, p->a);
		patch_json(&j, "b", p->b >= 0 ? &rd->b[p->b] : NULL, p->b);
		if (dr && !r)
			r = pair_json(&j, dr, p);
		json_key(&j, "lost_trailers");
		json_array_begin(&j);
		for (i = 0; p->b >= 0 && i < td->nr; i++)
			if (td->items[i].b == (size_t)p->b)
				trailerdiff_lost_json(&j, td, &td->items[i]);
		json_array_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_key(&j, "splits");
	splits_to_json(sp, &j);
	json_object_end(&j);
	strbuf_addch(out, '\n');
	return r;
}

/* The tags vb's patches lost against va's. */
static int lost_trailers(git_repository *repo, const struct series *s,
			 const struct series_version *va,
			 const struct series_version *vb,
			 const struct rangediff_patch *pa, size_t na,
			 const struct rangediff_patch *pb, size_t nb,
			 struct trailerdiff *td)
{
	struct trailerdiff_version a, b;
	int r;

	trailerdiff_version_init(&b, vb->number);
	r = trailerdiff_version_from_store(&a, repo, s, va, pa, na);
	if (!r)
		r = trailerdiff_version_from_store(&b, repo, s, vb, pb, nb);
	if (!r)
		trailerdiff_compute(td, &a, &b);
	trailerdiff_version_release(&a);
	trailerdiff_version_release(&b);
	return r;
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

/*
 * A range-diff quotes mail (subjects, patch lines): what a terminal
 * would act on is written escaped, newlines and tabs as they are.  The
 * JSON form escapes for itself (and stays the exact text).
 */
static void put_text(const struct strbuf *out)
{
	struct strbuf safe = STRBUF_INIT;

	if (term_safe_clean(out->buf, out->len, TERM_SAFE_LINES)) {
		fwrite(out->buf, 1, out->len, stdout);
		return;
	}
	strbuf_add_term_safe(&safe, out->buf, out->len, TERM_SAFE_LINES);
	fwrite(safe.buf, 1, safe.len, stdout);
	strbuf_release(&safe);
}

int cmd_diff(int argc, const char **argv, struct command_context *ctx)
{
	int json = 0, no_patch = 0, results = 0, no_title = 0, no_splits = 0;
	int exit_code, n, r;
	int creation_factor = RANGEDIFF_CREATION_FACTOR;
	struct option opts[] = {
		OPT_INT(0, "creation-factor", &creation_factor, "n",
			"percentage by which creating a patch is weighted "
			"(default 60)"),
		OPT_BOOL('s', "no-patch", &no_patch,
			 "show the pairing lines only"),
		OPT_BOOL(0, "json", &json, "print the pairs as JSON"),
		OPT_BOOL(0, "results", &results,
			 "show what changed in each pair's stored results"),
		OPT_BOOL(0, "no-title-pairs", &no_title,
			 "pair as git range-diff alone: no pairing of its "
			 "leftovers by subject and author"),
		OPT_BOOL(0, "no-splits", &no_splits,
			 "say nothing of patches split or squashed"),
		OPT_END()
	};
	struct rangediff_patch *pa = NULL, *pb = NULL;
	size_t na = 0, nb = 0;
	struct strbuf out = STRBUF_INIT;
	struct rangediff rd = { 0 };
	struct series s;
	struct series_version *latest, *va = NULL, *vb = NULL;
	git_mailmap *mailmap = NULL;
	struct diff_results dr;
	struct diff_notes dn;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	memset(&dn, 0, sizeof(dn));
	dn.find_splits = !no_splits;
	if (n == 0)
		return command_usage_error(opts, usage,
					   "which series? give NAME [vA vB]");
	if (creation_factor < 0)
		return command_usage_error(opts, usage,
					   "--creation-factor must be 0 or more");
	if ((n == 2 || (n == 1 && !ctx->repo)) && is_mail_source(argv[0]) &&
	    (n == 1 || is_mail_source(argv[1]))) {
		if (results)
			return command_usage_error(opts, usage, "--results "
				"needs a series recorded in a repository, not "
				"mail");
		r = diff_mail(ctx->repo, n, argv, creation_factor, !no_title,
			      &dn, no_patch ? RANGEDIFF_NO_PATCH : 0, &out);
		if (!r)
			put_text(&out);
		strbuf_release(&out);
		splits_release(&dn.sp);
		trailerdiff_release(&dn.td);
		return r < 0 ? error_report(r) : 0;
	}
	if (n == 1 && access(argv[0], R_OK) == 0 && !strchr(argv[0], '@')) {
		struct series probe;

		/* a file, not a series name: its last two versions */
		if (series_load(ctx->repo, argv[0], &probe, SERIES_LOAD_LATEST) ==
		    RESPIN_ENOTFOUND) {
			series_release(&probe);
			error_clear();
			if (results)
				return command_usage_error(opts, usage,
					"--results needs a series recorded in "
					"a repository, not mail");
			r = diff_mail(ctx->repo, 1, argv, creation_factor,
				      !no_title, &dn, no_patch ?
				      RANGEDIFF_NO_PATCH : 0, &out);
			if (!r)
				put_text(&out);
			strbuf_release(&out);
			splits_release(&dn.sp);
			trailerdiff_release(&dn.td);
			return r < 0 ? error_report(r) : 0;
		}
		series_release(&probe);
		error_clear();
	}
	if (!ctx->repo)
		return error_report(error("not a git repository, and '%s' is "
					  "not mail to compare", argv[0]));
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

	memset(&dr, 0, sizeof(dr));
	r = series_load_spec(ctx->repo, argv[0], &s, &latest);
	if (!r)
		r = pick_versions(&s, latest, n == 3 ? argv[1] : NULL,
				  n == 3 ? argv[2] : NULL, &va, &vb);
	/* git log maps authors through .mailmap by default; so do we */
	if (!r && git_mailmap_from_repository(&mailmap, ctx->repo) < 0)
		mailmap = NULL;
	if (!r)
		r = series_rangediff_patches(ctx->repo, mailmap, &s, va, &pa, &na);
	if (!r)
		r = series_rangediff_patches(ctx->repo, mailmap, &s, vb, &pb, &nb);
	if (!r)
		r = rangediff_compute(pa, na, pb, nb, creation_factor, &rd);
	if (!r)
		diff_notes_find(&dn, &rd, !no_title);
	if (!r)
		r = lost_trailers(ctx->repo, &s, va, vb, pa, na, pb, nb, &dn.td);
	if (!r && results)
		r = results_load(ctx->repo, &s, va, vb, &dr);
	if (!r) {
		dn.dr = &dr;
		dn.results_on = dr.on;
		if (json)
			r = diff_json(&s, va->number, vb->number, &rd, &dn.sp,
				      results ? &dr : NULL, &dn.td, &out);
		else
			r = rangediff_print_with(&rd, no_patch ?
					RANGEDIFF_NO_PATCH : 0, &out,
					notes_after_line, &dn);
	}
	if (!r)
		put_text(&out);
	strbuf_release(&out);
	rangediff_release(&rd);
	rangediff_patches_free(pa, na);
	rangediff_patches_free(pb, nb);
	results_release(&dr);
	splits_release(&dn.sp);
	trailerdiff_release(&dn.td);
	series_release(&s);
	git_mailmap_free(mailmap);
	return r < 0 ? error_report(r) : 0;
}
