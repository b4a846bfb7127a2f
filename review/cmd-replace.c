// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin replace NAME --in BRANCH [--version N] [--base REF]
 *                [--source MAIL] [--drop-obsolete] [--dry-run]
 *
 * For a maintainer: the version of series NAME applied in an
 * integration branch is swapped for version N (the latest by default),
 * each new commit with the maintainer's part of the one it replaces
 * and the review tags given since, every later commit re-applied, and
 * the branch moved only when all of it succeeded.
 */
#include "review/replacetags.h"
#include "series/quiltreplace.h"
#include "series/replace.h"
#include "patches/subject.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const usage[] = {
	"respin replace <name> --in <branch> [--version <n>] [--base <ref>]",
	"               [--source <mail>] [--drop-obsolete] [--dry-run]",
	"   or: respin replace <name> --quilt <dir> [--base <ref>] ...",
	NULL
};

/* Old patches against new: the same, changed (by title), new, dropped. */
static void say_changes(const struct series_version *a,
			const struct series_version *b, struct strbuf *out)
{
	size_t i, k, same = 0, changed = 0, added = 0, dropped = 0;
	unsigned char *used = xcalloc(a->nr_patches + 1, 1);
	struct strbuf lines = STRBUF_INIT;

	for (k = 0; k < b->nr_patches; k++) {
		char *tb = subject_title(b->patches[k].subject, 1);
		int done = 0;

		for (i = 0; i < a->nr_patches && !done; i++)
			if (!used[i] && git_oid_equal(&a->patches[i].patch_id,
						      &b->patches[k].patch_id)) {
				used[i] = 1;
				same++;
				done = 1;
			}
		for (i = 0; i < a->nr_patches && !done; i++) {
			char *ta = subject_title(a->patches[i].subject, 1);

			if (!used[i] && !strcmp(ta, tb)) {
				used[i] = 1;
				changed++;
				done = 1;
				strbuf_addf(&lines, "  changed %zu/%zu %s\n", k + 1,
					    b->nr_patches, b->patches[k].subject);
			}
			free(ta);
		}
		if (!done) {
			added++;
			strbuf_addf(&lines, "  added   %zu/%zu %s\n", k + 1,
				    b->nr_patches, b->patches[k].subject);
		}
		free(tb);
	}
	for (i = 0; i < a->nr_patches; i++)
		if (!used[i]) {
			dropped++;
			strbuf_addf(&lines, "  dropped %zu/%zu %s\n", i + 1,
				    a->nr_patches, a->patches[i].subject);
		}
	strbuf_addf(out, "%zu the same, %zu changed, %zu added, %zu dropped\n%s",
		    same, changed, added, dropped, lines.buf);
	strbuf_release(&lines);
	free(used);
}

/* What the new patch i took from the old commit, and what it added. */
/* A commit of the scan: its patch file in a quilt stack, else its id. */
static const char *label(const struct quilt_stack *q, const git_oid *oid)
{
	const struct quilt_patch *p = q ? quilt_find(q, oid) : NULL;

	return p ? p->name : oid_short(oid, 12);
}

static void say_carried(const struct replace_run *rr, size_t i,
			struct strbuf *out, const struct quilt_stack *q)
{
	const struct carry_commit *c = &rr->p.carried[i];
	size_t k;

	strbuf_addf(out, "  %zu/%zu %s: ", i + 1, rr->to->nr_patches,
		    rr->to->patches[i].subject);
	if (git_oid_is_zero(&c->from))
		strbuf_addstr(out, "nothing to carry\n");
	else
		strbuf_addf(out, "carried from %s%s\n", label(q, &c->from),
			    c->no_predecessor ? " (a new patch: the series' "
			    "first commit's)" : "");
	for (k = 0; k < c->nr; k++)
		strbuf_addf(out, "    %c %s: %s%s%s%s\n",
			    c->lines[k].dropped ? '-' : '+', c->lines[k].key,
			    c->lines[k].value, c->lines[k].note ? " (" : "",
			    c->lines[k].note ? c->lines[k].note : "",
			    c->lines[k].note ? ")" : "");
}

static void print_plan(const struct replace_run *rr,
		       const struct replace_request *rq,
		       const struct quilt_stack *q)
{
	const struct replace_plan *p = &rr->p;
	struct strbuf out = STRBUF_INIT;
	size_t i;

	strbuf_addf(&out, "%s: %s v%d -> v%d%s: ", rq->branch, rr->f->s.name,
		    rr->f->v->number, rr->to->number,
		    rq->dry_run ? " (dry run)" : "");
	say_changes(rr->f->v, rr->to, &out);
	for (i = 0; i < p->nr_carried; i++)
		say_carried(rr, i, &out, q);
	strbuf_addf(&out, "  %zu later %s%s re-applied", p->kept,
		    q ? "patch" : "commit", p->kept == 1 ? "" : q ? "es" : "s");
	if (p->kept_fixups || p->dropped_fixups)
		strbuf_addf(&out, ", %zu fixup%s kept, %zu left out",
			    p->kept_fixups, p->kept_fixups == 1 ? "" : "s",
			    p->dropped_fixups);
	strbuf_addch(&out, '\n');
	for (i = 0; i < rr->t.nr; i++)
		if (p->left_out[i])
			strbuf_addf(&out, "  left out %s %s (obsolete)\n",
				    label(q, &rr->t.commits[i].oid),
				    rr->t.commits[i].subject);
	strbuf_addf(&out, "  the trees from %s on changed: respin check "
		    "%s@v%d checks it (stored results are reused)\n",
		    oid_short(&p->onto, 12), rr->f->s.name, rr->to->number);
	if (rr->moved)
		strbuf_addf(&out, "%s is now %s (was %s)\n", rq->branch,
			    oid_short(&p->tip, 12), oid_short(&rr->t.tip, 12));
	fputs_term_safe(stdout, out.buf, out.len, TERM_SAFE_LINES);
	strbuf_release(&out);
}

int cmd_replace(int argc, const char **argv, struct command_context *ctx)
{
	struct replace_request rq = { 0 };
	const char *source = NULL, *quilt = NULL;
	struct quilt_replace qr = { 0 };
	int exit_code, n, r;
	struct option opts[] = {
		OPT_STRING(0, "in", &rq.branch, "branch",
			   "the integration branch (e.g. mm-unstable)"),
		OPT_STRING(0, "quilt", &quilt, "dir",
			   "a quilt stack (DIR/series and its patches) on "
			   "--base (default HEAD) instead of a branch"),
		OPT_INT(0, "version", &rq.version, "n",
			"the version to put in (default: the latest)"),
		OPT_STRING(0, "base", &rq.base, "ref",
			   "the branch's commits above this (as respin tree)"),
		OPT_STRING(0, "source", &source, "mail",
			   "the review tags given since, from this mail (an "
			   "mbox, maildir, lore:MSGID, notmuch:QUERY; default: "
			   "where respin trailers looks)"),
		OPT_BOOL(0, "drop-obsolete", &rq.drop_obsolete,
			 "leave out fixups that no longer apply"),
		OPT_BOOL(0, "dry-run", &rq.dry_run, "say what it would do"),
		OPT_END()
	};
	struct replace_run rr;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give NAME");
	if (!rq.branch == !quilt)
		return command_usage_error(opts, usage, quilt ? "--in BRANCH "
					   "or --quilt DIR, not both" : "in "
					   "which branch? give --in BRANCH "
					   "(or --quilt DIR)");
	rq.name = argv[0];
	rq.given = replace_given_tags;
	rq.given_data = (void *)source;
	if (quilt) {
		rq.branch = quilt;
		r = quilt_replace_run(ctx->repo, &rq, quilt, &rr, &qr);
	} else {
		r = replace_run(ctx->repo, &rq, &rr);
	}
	if (rr.notes.len)
		fputs_term_safe(stderr, rr.notes.buf, rr.notes.len,
				TERM_SAFE_LINES);
	if (r < 0)
		r = error_report(r);
	else if (rr.to->number == rr.f->v->number)
		printf("%s: %s v%d is in it already; nothing to do\n",
		       rq.branch, rr.f->s.name, rr.to->number);
	else
		print_plan(&rr, &rq, quilt ? &qr.q : NULL);
	if (r >= 0 && qr.report.len)
		fputs_term_safe(stdout, qr.report.buf, qr.report.len,
				TERM_SAFE_LINES);
	replace_run_release(&rr);
	quilt_replace_release(&qr);
	return r;
}
