// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin show NAME[@vN] [--json]: one version of a series.
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
	"respin show <name>[@v<n>] [--json]",
	NULL
};

static void show_json(const struct series *s, const struct series_version *v,
		      struct strbuf *out)
{
	struct json j;
	const char *p;
	size_t i, n;

	json_init(&j, out, 1);
	json_object_begin(&j);
	json_string_member(&j, "series", s->name);
	json_string_member(&j, "change_id", s->change_id);
	json_string_member(&j, "base_ref", v->base_ref ? v->base_ref : s->base_ref);
	json_int_member(&j, "version", v->number);
	json_key(&j, "versions");
	json_array_begin(&j);
	for (i = 0; i < s->nr_versions; i++)
		json_int(&j, s->versions[i].number);
	json_array_end(&j);
	json_key(&j, "base");
	if (git_oid_is_zero(&v->base))
		json_null(&j);
	else
		json_string(&j, oid_short(&v->base, GIT_OID_HEXSZ));
	json_key(&j, "tip");
	if (git_oid_is_zero(&v->tip))
		json_null(&j);
	else
		json_string(&j, oid_short(&v->tip, GIT_OID_HEXSZ));
	json_int_member(&j, "recorded", v->recorded);
	json_string_member(&j, "source", v->source);
	json_key(&j, "message_id");
	if (v->message_id)
		json_string(&j, v->message_id);
	else
		json_null(&j);
	json_key(&j, "subject_prefix");
	if (v->subject_prefix)
		json_string(&j, v->subject_prefix);
	else
		json_null(&j);
	json_key(&j, "sent_base");
	if (v->sent_base)
		json_string(&j, v->sent_base);
	else
		json_null(&j);
	json_key(&j, "rebased_from");
	if (rebase_version_from(v))
		json_int(&j, rebase_version_from(v));
	else
		json_null(&j);
	json_key(&j, "prerequisite_patch_ids");
	json_array_begin(&j);
	for (p = v->sent_prereqs; p && *p; p += n + (p[n] == '\n')) {
		n = strcspn(p, "\n");
		json_string_len(&j, p, n);
	}
	json_array_end(&j);
	json_key(&j, "patches");
	json_array_begin(&j);
	for (i = 0; i < v->nr_patches; i++) {
		const struct series_patch *p = &v->patches[i];

		json_object_begin(&j);
		json_int_member(&j, "index", (int64_t)i + 1);
		json_key(&j, "commit");
		if (git_oid_is_zero(&p->commit))
			json_null(&j);
		else
			json_string(&j, oid_short(&p->commit, GIT_OID_HEXSZ));
		json_string_member(&j, "patch_id",
				   oid_short(&p->patch_id, GIT_OID_HEXSZ));
		json_string_member(&j, "subject", p->subject);
		if (p->message_id)
			json_string_member(&j, "message_id", p->message_id);
		if (rebase_patch_how(p) != REBASE_TODO)
			json_string_member(&j, "rebased",
					   rebase_how_name(rebase_patch_how(p)));
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	strbuf_addch(out, '\n');
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* "v1..v3, v5": the versions recorded, a run of numbers as a range. */
static void add_recorded(struct strbuf *out, const struct series *s)
{
	size_t i = 0, j;

	while (i < s->nr_versions) {
		for (j = i; j + 1 < s->nr_versions &&
			    s->versions[j + 1].number ==
			    s->versions[j].number + 1; j++)
			;
		strbuf_addf(out, "%sv%d", i ? ", " : "",
			    s->versions[i].number);
		if (j > i)
			strbuf_addf(out, "..v%d", s->versions[j].number);
		i = j + 1;
	}
}

/* "rebased    from v2: 1 patch resolved by hand, 1 by a 3-way merge" */
static void add_rebased(struct strbuf *out, const struct series_version *v)
{
	size_t i, resolved = 0, merged = 0;

	for (i = 0; i < v->nr_patches; i++) {
		resolved += rebase_patch_how(&v->patches[i]) == REBASE_RESOLVED;
		merged += rebase_patch_how(&v->patches[i]) == REBASE_3WAY;
	}
	strbuf_addf(out, "rebased    from v%d", rebase_version_from(v));
	if (resolved)
		strbuf_addf(out, "; %zu patch%s resolved by hand", resolved,
			    resolved == 1 ? "" : "es");
	if (merged)
		strbuf_addf(out, "%s %zu patch%s by a 3-way merge",
			    resolved ? "," : ";", merged,
			    merged == 1 ? "" : "es");
	strbuf_addch(out, '\n');
}

static void show_text(const struct series *s, const struct series_version *v,
		      struct strbuf *out)
{
	size_t i, n = v->nr_patches;
	int width = n >= 100 ? 3 : n >= 10 ? 2 : 1;

	strbuf_addf(out, "series     %s v%d", term_safe(s->name), v->number);
	if (s->nr_versions > 1) {
		strbuf_addstr(out, " (");
		add_recorded(out, s);
		strbuf_addstr(out, " recorded)");
	}
	strbuf_addch(out, '\n');
	if (s->change_id)
		strbuf_addf(out, "change-id  %s\n", term_safe(s->change_id));
	if (!git_oid_is_zero(&v->base))
		strbuf_addf(out, "base       %s at %s\n",
			    term_safe(repo_ref_short(v->base_ref ? v->base_ref :
						     s->base_ref ? s->base_ref :
						     "-")),
			    oid_short(&v->base, 12));
	else
		strbuf_addf(out, "base       unknown\n");
	strbuf_addf(out, "recorded   %s\n", repo_date(v->recorded));
	if (v->source)
		strbuf_addf(out, "source     %s\n", term_safe(v->source));
	if (rebase_version_from(v))
		add_rebased(out, v);
	if (v->message_id)
		strbuf_addf(out, "sent as    <%s>\n", term_safe(v->message_id));
	if (v->subject_prefix)
		strbuf_addf(out, "prefix     %s\n", term_safe(v->subject_prefix));
	if (v->sent_base) {
		size_t nr = count_lines(v->sent_prereqs);

		strbuf_addf(out, "sent on    %s", term_safe(v->sent_base));
		if (nr)
			strbuf_addf(out, " and %zu prerequisite patch%s", nr,
				    nr == 1 ? "" : "es");
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out, "patches    %zu\n\n", n);
	for (i = 0; i < n; i++) {
		const struct series_patch *p = &v->patches[i];
		enum rebase_how how = rebase_patch_how(p);

		strbuf_addf(out, "  %*zu/%zu %s %s %s", width, i + 1, n,
			    git_oid_is_zero(&p->commit) ? "------------" :
			    oid_short(&p->commit, 12),
			    oid_short(&p->patch_id, 12), term_safe(p->subject));
		if (how == REBASE_3WAY || how == REBASE_RESOLVED)
			strbuf_addf(out, " [%s]", rebase_how_name(how));
		strbuf_addch(out, '\n');
	}
}

int cmd_show(int argc, const char **argv, struct command_context *ctx)
{
	int json = 0, exit_code, n, r;
	struct option opts[] = {
		OPT_BOOL(0, "json", &json, "print JSON"),
		OPT_END()
	};
	struct strbuf out = STRBUF_INIT;
	struct series s;
	struct series_version *v;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give NAME[@vN]");
	r = series_load_spec(ctx->repo, argv[0], &s, &v);
	if (r < 0) {
		series_release(&s);
		return error_report(r);
	}
	if (json)
		show_json(&s, v, &out);
	else
		show_text(&s, v, &out);
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
	series_release(&s);
	return 0;
}
