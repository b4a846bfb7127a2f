// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin list [--json]: one line a series.
 */
#include "series/rebase.h"
#include "series/store.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <string.h>

static const char *const usage[] = {
	"respin list [--json]",
	NULL
};

/* A summary from an older respin's commit: load the series instead. */
static int fill_summary(git_repository *repo, struct series_summary *sm)
{
	struct series s;
	struct series_version *v;
	int r;

	r = series_load(repo, sm->name, &s, SERIES_LOAD_LATEST);
	if (r < 0) {
		series_release(&s);
		return r;
	}
	v = series_latest(&s);
	sm->latest = v ? v->number : 0;
	sm->versions = (int)s.nr_versions;
	sm->patches = v ? v->nr_patches : 0;
	sm->rebased_from = v ? rebase_version_from(v) : 0;
	free(sm->base_ref);
	sm->base_ref = s.base_ref ? xstrdup(s.base_ref) : NULL;
	free(sm->change_id);
	sm->change_id = s.change_id ? xstrdup(s.change_id) : NULL;
	series_release(&s);
	return 0;
}

int cmd_list(int argc, const char **argv, struct command_context *ctx)
{
	int json = 0, exit_code, n, r;
	struct option opts[] = {
		OPT_BOOL(0, "json", &json, "print a JSON array"),
		OPT_END()
	};
	struct strbuf out = STRBUF_INIT;
	struct series_summary *l;
	size_t nr, i;
	struct json j;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n)
		return command_usage_error(opts, usage, "too many arguments");
	r = series_summaries(ctx->repo, &l, &nr);
	if (r < 0)
		return error_report(r);
	if (json) {
		json_init(&j, &out, 1);
		json_array_begin(&j);
	}
	for (i = 0; i < nr; i++) {
		struct series_summary *sm = &l[i];

		if ((!sm->latest || sm->patches == (size_t)-1) &&
		    (r = fill_summary(ctx->repo, sm)) < 0) {
			series_summaries_free(l, nr);
			strbuf_release(&out);
			return error_report(r);
		}
		if (json) {
			json_object_begin(&j);
			json_string_member(&j, "name", sm->name);
			json_string_member(&j, "change_id", sm->change_id);
			json_string_member(&j, "base_ref", sm->base_ref);
			json_int_member(&j, "latest_version", sm->latest);
			json_int_member(&j, "versions", sm->versions);
			json_int_member(&j, "patches", (int64_t)sm->patches);
			json_int_member(&j, "updated", sm->updated);
			json_key(&j, "rebased_from");
			if (sm->rebased_from)
				json_int(&j, sm->rebased_from);
			else
				json_null(&j);
			json_object_end(&j);
		} else {
			strbuf_addf(&out, "%-24s v%-3d %3zu patch%s  %-20s %s",
				    term_safe(sm->name), sm->latest,
				    sm->patches,
				    sm->patches == 1 ? "  " : "es",
				    sm->base_ref ?
				    term_safe(repo_ref_short(sm->base_ref)) :
				    "-", repo_date(sm->updated));
			if (sm->rebased_from)
				strbuf_addf(&out, "  rebased from v%d",
					    sm->rebased_from);
			strbuf_addch(&out, '\n');
		}
	}
	if (json) {
		json_array_end(&j);
		strbuf_addch(&out, '\n');
	}
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
	series_summaries_free(l, nr);
	return 0;
}
