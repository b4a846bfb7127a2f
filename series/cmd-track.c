// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin track NAME [--base REF] [--tip REV] [--version N]
 *
 * Records REF..TIP as the next version of series NAME.
 */
#include "series/range.h"
#include "tools/lib/command.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
	"respin track <name> [--base <ref>] [--tip <rev>] [--version <n>]",
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

int cmd_track(int argc, const char **argv, struct command_context *ctx)
{
	const char *base_opt = NULL, *tip = "HEAD", *version_opt = NULL;
	int number = 0, json = 0, exit_code, r, same;
	struct option opts[] = {
		OPT_STRING(0, "base", &base_opt, "ref",
			   "the base the series is written on (remembered)"),
		OPT_STRING(0, "tip", &tip, "rev",
			   "the last patch of the version (default HEAD)"),
		OPT_STRING(0, "version", &version_opt, "n",
			"record as version N (for series sent before respin)"),
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

	v = series_version_add(&s, number);
	v->base = nv.base;
	v->tip = nv.tip;
	v->patches = nv.patches;
	v->nr_patches = nv.nr_patches;
	v->alloc_patches = nv.alloc_patches;
	nv.patches = NULL;
	nv.nr_patches = nv.alloc_patches = 0;
	v->base_ref = xstrdup(base_ref);
	v->recorded = repo_now();
	strbuf_addf(&src, "git %s..%s", repo_ref_short(base_ref), tip);
	if (strcmp(tip, oid_short(&v->tip, GIT_OID_HEXSZ)))
		strbuf_addf(&src, " (%s)", oid_short(&v->tip, 12));
	v->source = strbuf_detach(&src, NULL);
	v->loaded = 1;

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
		json_int_member(&j, "version", number);
		json_int_member(&j, "patches", (int64_t)v->nr_patches);
		json_string_member(&j, "change_id", s.change_id);
		json_string_member(&j, "base_ref", s.base_ref);
		json_string_member(&j, "base", oid_short(&v->base, 40));
		json_string_member(&j, "tip", oid_short(&v->tip, 40));
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
