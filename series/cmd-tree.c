// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin tree BRANCH [--base REF] [--max N] [-v] [--json]
 *
 * The tracked series inside an integration branch (mm-unstable): which
 * version, by what evidence, which patches are missing or changed, the
 * fixups after them, and whether a newer version is known.
 */
#include "series/quilt.h"
#include "series/treemail.h"
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
	"respin tree <branch> [--base <ref>] [--max <n>] [--source <source>] [-v] [--json]",
	"respin tree --quilt <dir> [--base <ref>] [--source <source>] [-v] [--json]",
	NULL
};

#define DEFAULT_MAX 20000

static void evidence_counts(const struct tree_found *f, struct strbuf *out)
{
	size_t pi, n[3] = { 0, 0, 0 };
	const char *names[3] = { "by patch-id", "by Link", "by subject and author" };
	int k, first = 1;

	for (pi = 0; pi < f->v->nr_patches; pi++) {
		unsigned ev = f->evidence[pi];

		if (!f->at[pi])
			continue;
		n[ev & TREE_BY_PATCH_ID ? 0 : ev & TREE_BY_LINK ? 1 : 2]++;
	}
	for (k = 0; k < 3; k++) {
		if (!n[k])
			continue;
		strbuf_addf(out, "%s%zu %s", first ? "" : ", ", n[k], names[k]);
		first = 0;
	}
}

/* Commit i of the scan: its patch file in a quilt stack, else its id. */
static const char *label(const struct tree_scan *t, const char *const *names,
			 size_t i)
{
	return names ? names[i] : oid_short(&t->commits[i].oid, 12);
}

static void print_text(const struct tree_scan *t, const int *on_list,
		       int verbose, const char *const *names)
{
	const char *what = names ? "patch" : "commit",
		   *whats = names ? "patches" : "commits";

	struct strbuf out = STRBUF_INIT;
	size_t i, k, pi;

	strbuf_addf(&out, "%s: %zu %s above %s, %zu tracked series in "
		    "it, %zu %s match none\n", t->branch, t->nr,
		    t->nr == 1 ? what : whats, t->have_base ?
		    oid_short(&t->base, 12) : "the root", t->nr_found,
		    t->nr_unmatched, t->nr_unmatched == 1 ? what : whats);
	for (k = 0; k < t->nr_found; k++) {
		const struct tree_found *f = &t->found[k];
		const struct series_version *v = f->v;

		strbuf_addf(&out, "%s v%d: %zu/%zu patches (", f->s.name,
			    v->number, f->nr_matched, v->nr_patches);
		evidence_counts(f, &out);
		strbuf_addch(&out, ')');
		if (f->nr_changed)
			strbuf_addf(&out, ", %zu changed", f->nr_changed);
		if (f->nr_matched < v->nr_patches)
			strbuf_addf(&out, ", %zu missing",
				    v->nr_patches - f->nr_matched);
		if (f->nr_fixups)
			strbuf_addf(&out, ", %zu fixup%s", f->nr_fixups,
				    f->nr_fixups == 1 ? "" : "s");
		if (f->newest > v->number)
			strbuf_addf(&out, "; v%d is known", f->newest);
		if (on_list && on_list[k] > v->number && on_list[k] > f->newest)
			strbuf_addf(&out, "; v%d is on the list", on_list[k]);
		strbuf_addf(&out, "\n    %s..", label(t, names, f->first));
		strbuf_addf(&out, "%s\n", label(t, names, f->last));
		for (pi = 0; pi < v->nr_patches; pi++) {
			if (!f->at[pi]) {
				strbuf_addf(&out, "    %zu/%zu missing      %s\n",
					    pi + 1, v->nr_patches,
					    v->patches[pi].subject ?
					    v->patches[pi].subject : "");
				continue;
			}
			strbuf_addf(&out, "    %zu/%zu %s %s (%s%s)\n", pi + 1,
				    v->nr_patches,
				    label(t, names, f->at[pi] - 1),
				    t->commits[f->at[pi] - 1].subject,
				    tree_evidence_name(f->evidence[pi]),
				    f->evidence[pi] & TREE_BY_PATCH_ID ? "" :
				    ", changed");
		}
		for (i = 0; i < t->nr; i++)
			if (t->commits[i].fixup && t->commits[i].found == (int)k)
				strbuf_addf(&out, "    fix %s %s (fixes %zu/%zu)\n",
					    label(t, names, i),
					    t->commits[i].subject,
					    t->commits[i].patch + 1,
					    v->nr_patches);
	}
	if (verbose && t->nr_unmatched) {
		strbuf_addstr(&out, "not tracked:\n");
		for (i = 0; i < t->nr; i++)
			if (t->commits[i].found < 0)
				strbuf_addf(&out, "    %s %s\n",
					    label(t, names, i),
					    t->commits[i].subject);
	}
	fputs_term_safe(stdout, out.buf, out.len, TERM_SAFE_LINES);
	strbuf_release(&out);
}

/* Patch pi of found f: its commit in the branch, and what matched. */
static void json_patch(struct json *j, const struct tree_scan *t,
		       const struct tree_found *f, size_t pi,
		       const char *const *names)
{
	const struct series_version *v = f->v;

	json_object_begin(j);
	json_int_member(j, "index", (int64_t)pi + 1);
	json_string_member(j, "title", v->patches[pi].subject ?
			   v->patches[pi].subject : "");
	json_key(j, "commit");
	if (f->at[pi])
		json_string(j, oid_short(&t->commits[f->at[pi] - 1].oid, 40));
	else
		json_null(j);
	if (names) {
		json_key(j, "patch");
		if (f->at[pi])
			json_string(j, names[f->at[pi] - 1]);
		else
			json_null(j);
	}
	json_key(j, "evidence");
	json_array_begin(j);
	if (f->evidence[pi] & TREE_BY_PATCH_ID)
		json_string(j, "patch-id");
	if (f->evidence[pi] & TREE_BY_LINK)
		json_string(j, "link");
	if (f->evidence[pi] & TREE_BY_SUBJECT)
		json_string(j, "subject-author");
	json_array_end(j);
	json_bool_member(j, "missing", !f->at[pi]);
	json_bool_member(j, "changed", f->at[pi] &&
			 !(f->evidence[pi] & TREE_BY_PATCH_ID));
	json_object_end(j);
}

/* A commit of the branch: its id, subject and quilt name (names). */
static void json_commit_members(struct json *j, const struct tree_scan *t,
				size_t i, const char *const *names)
{
	json_string_member(j, "commit", oid_short(&t->commits[i].oid, 40));
	json_string_member(j, "subject", t->commits[i].subject);
	if (names)
		json_string_member(j, "patch", names[i]);
}

static void print_json(const struct tree_scan *t, const int *on_list,
		       const char *const *names)
{
	struct strbuf out = STRBUF_INIT;
	struct json j;
	size_t i, k, pi;

	json_init(&j, &out, 1);
	json_object_begin(&j);
	json_string_member(&j, "branch", t->branch);
	json_string_member(&j, "tip", oid_short(&t->tip, 40));
	json_key(&j, "base");
	if (t->have_base)
		json_string(&j, oid_short(&t->base, 40));
	else
		json_null(&j);
	json_int_member(&j, "commits", (int64_t)t->nr);
	json_key(&j, "series");
	json_array_begin(&j);
	for (k = 0; k < t->nr_found; k++) {
		const struct tree_found *f = &t->found[k];
		const struct series_version *v = f->v;

		json_object_begin(&j);
		json_string_member(&j, "name", f->s.name);
		json_int_member(&j, "version", v->number);
		json_int_member(&j, "newest_known", f->newest);
		json_key(&j, "newest_on_list");
		if (on_list && on_list[k])
			json_int(&j, on_list[k]);
		else
			json_null(&j);
		json_string_member(&j, "first", oid_short(&t->commits[f->first].oid, 40));
		json_string_member(&j, "last", oid_short(&t->commits[f->last].oid, 40));
		json_int_member(&j, "matched", (int64_t)f->nr_matched);
		json_int_member(&j, "changed", (int64_t)f->nr_changed);
		json_key(&j, "patches");
		json_array_begin(&j);
		for (pi = 0; pi < v->nr_patches; pi++)
			json_patch(&j, t, f, pi, names);
		json_array_end(&j);
		json_key(&j, "fixups");
		json_array_begin(&j);
		for (i = 0; i < t->nr; i++) {
			if (!t->commits[i].fixup || t->commits[i].found != (int)k)
				continue;
			json_object_begin(&j);
			json_commit_members(&j, t, i, names);
			json_int_member(&j, "fixes", (int64_t)t->commits[i].patch + 1);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_key(&j, "untracked");
	json_array_begin(&j);
	for (i = 0; i < t->nr; i++) {
		if (t->commits[i].found >= 0)
			continue;
		json_object_begin(&j);
		json_commit_members(&j, t, i, names);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	puts(out.buf);
	strbuf_release(&out);
}

int cmd_tree(int argc, const char **argv, struct command_context *ctx)
{
	const char *base = NULL, *source = NULL, *quilt = NULL;
	const char **names = NULL;
	struct quilt_stack q = { 0 };
	int *on_list = NULL;
	int max = DEFAULT_MAX, json = 0, verbose = 0, exit_code, n, r;
	struct option opts[] = {
		OPT_STRING(0, "base", &base, "ref",
			   "the commits above this (default: down to the "
			   "first merge)"),
		OPT_INT(0, "max", &max, "n", "look at most at n commits "
			"without --base (default 20000)"),
		OPT_STRING(0, "source", &source, "source",
			   "look for newer versions in this mail too (an mbox, "
			   "maildir, lore:MSGID, notmuch:QUERY)"),
		OPT_STRING(0, "quilt", &quilt, "dir",
			   "a quilt stack (DIR/series and its patches) on "
			   "--base (default HEAD) instead of a branch"),
		OPT_BOOL('v', "verbose", &verbose, "list the untracked commits"),
		OPT_BOOL(0, "json", &json, "as JSON"),
		OPT_END()
	};
	struct tree_scan t;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != (quilt ? 0 : 1))
		return command_usage_error(opts, usage, quilt ? "--quilt DIR "
					   "or a branch, not both" : n ?
					   "too many arguments" : "which "
					   "branch? give BRANCH (e.g. "
					   "mm-unstable) or --quilt DIR");
	if (max < 1)
		return command_usage_error(opts, usage, "--max wants a count "
					   "of at least 1");
	if (quilt) {
		r = quilt_scan(ctx->repo, quilt, base, &q, &t);
		names = quilt_scan_names(&q, &t);
	} else {
		r = tree_scan(ctx->repo, argv[0], base, (size_t)max, &t);
	}
	if (r < 0) {
		tree_scan_release(&t);
		quilt_stack_release(&q);
		return error_report(r);
	}
	if (source) {
		on_list = xcalloc(t.nr_found + 1, sizeof(*on_list));
		r = tree_mail_newest(ctx->repo, &t, source, on_list);
		if (r < 0) {
			free(on_list);
			free(names);
			tree_scan_release(&t);
			quilt_stack_release(&q);
			return error_report(r);
		}
	}
	if (json)
		print_json(&t, on_list, names);
	else
		print_text(&t, on_list, verbose, names);
	free(on_list);
	free(names);
	tree_scan_release(&t);
	quilt_stack_release(&q);
	return 0;
}
