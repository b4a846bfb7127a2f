// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin list [--json]: one line a series.
 */
#include "series/store.h"
#include "tools/lib/command.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"

#include <stdio.h>
#include <string.h>

static const char *const usage[] = {
	"respin list [--json]",
	NULL
};

struct list_state {
	git_repository *repo;
	struct json *json;
	struct strbuf *out;
};

static int list_one(const char *name, void *data)
{
	struct list_state *st = data;
	struct series s;
	struct series_version *v;
	int r;

	r = series_load(st->repo, name, &s, SERIES_LOAD_LATEST);
	if (r < 0) {
		series_release(&s);
		return r;
	}
	v = series_latest(&s);
	if (st->json) {
		struct json *j = st->json;

		json_object_begin(j);
		json_string_member(j, "name", s.name);
		json_string_member(j, "change_id", s.change_id);
		json_string_member(j, "base_ref", s.base_ref);
		json_int_member(j, "latest_version", v ? v->number : 0);
		json_int_member(j, "versions", (int64_t)s.nr_versions);
		json_int_member(j, "patches", v ? (int64_t)v->nr_patches : 0);
		json_int_member(j, "updated", s.updated);
		json_object_end(j);
	} else {
		strbuf_addf(st->out, "%-24s v%-3d %3zu patch%s  %-20s %s\n",
			    s.name, v ? v->number : 0,
			    v ? v->nr_patches : 0,
			    v && v->nr_patches == 1 ? "  " : "es",
			    s.base_ref ? repo_ref_short(s.base_ref) : "-",
			    repo_date(s.updated));
	}
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
	struct json j;
	struct list_state st = { ctx->repo, NULL, &out };

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n)
		return command_usage_error(opts, usage, "too many arguments");
	if (json) {
		json_init(&j, &out, 1);
		st.json = &j;
		json_array_begin(&j);
	}
	r = series_foreach_name(ctx->repo, list_one, &st);
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
	return 0;
}
