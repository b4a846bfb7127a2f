// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/replace.h"
#include "series/pick.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>

void replace_plan_init(struct replace_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->failed_commit = -1;
	strbuf_init(&p->why, 0);
}

void replace_plan_release(struct replace_plan *p)
{
	free(p->left_out);
	strbuf_release(&p->why);
	replace_plan_init(p);
}

/* "conflict in a.c, b.c" out of one path a line. */
static void say_conflict(struct strbuf *why, const struct strbuf *files)
{
	const char *p = files->buf;
	int first = 1;

	strbuf_addstr(why, "conflict in ");
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		strbuf_addf(why, "%s%.*s", first ? "" : ", ", (int)n, p);
		first = 0;
		p += n + (nl ? 1 : 0);
	}
}

int replace_make(git_repository *repo, const struct tree_scan *t,
		 const struct tree_found *f, struct series_version *to,
		 int drop_obsolete, struct replace_plan *p)
{
	git_oid tip;
	size_t i;
	int r = 0, fi = (int)(f - t->found);

	p->f = f;
	p->to = to;
	p->left_out = xcalloc(t->nr + 1, 1);
	if (f->first)
		git_oid_cpy(&p->onto, &t->commits[f->first - 1].oid);
	else if (t->have_base)
		git_oid_cpy(&p->onto, &t->base);
	else
		return error("%s starts at the root of %s: nothing to put it "
			     "on", f->s.name, t->branch);
	git_oid_cpy(&tip, &p->onto);
	for (i = 0; i < to->nr_patches; i++) {
		struct pick_result pr;

		if (git_oid_is_zero(&to->patches[i].commit))
			return error("%s v%d is known from mail only: apply it "
				     "first ('respin import %s@v%d --base "
				     "REF')", f->s.name, to->number, f->s.name,
				     to->number);
		pick_result_init(&pr);
		r = pick_commit(repo, &to->patches[i].commit, &tip, &pr);
		if (!r && pr.conflict) {
			p->failed_patch = i + 1;
			say_conflict(&p->why, &pr.files);
			r = 1;
		} else if (!r) {
			git_oid_cpy(&tip, &pr.commit);
		}
		pick_result_release(&pr);
		if (r)
			return r;
	}
	for (i = f->first; i < t->nr; i++) {
		const struct tree_commit *c = &t->commits[i];
		int fixup = c->found == fi && c->fixup;
		struct pick_result pr;

		if (c->found == fi && !c->fixup)
			continue;	/* the old version's own */
		pick_result_init(&pr);
		r = pick_commit(repo, &c->oid, &tip, &pr);
		if (r < 0) {
			pick_result_release(&pr);
			return r;
		}
		if (fixup && (pr.conflict || pr.empty)) {
			if (drop_obsolete) {
				p->left_out[i] = 1;
				p->dropped_fixups++;
				pick_result_release(&pr);
				continue;
			}
			p->failed_commit = (int)i;
			if (pr.conflict)
				say_conflict(&p->why, &pr.files);
			else
				strbuf_addf(&p->why, "v%d has it already "
					    "(it comes out empty)", to->number);
			pick_result_release(&pr);
			return 1;
		}
		if (pr.conflict) {
			p->failed_commit = (int)i;
			say_conflict(&p->why, &pr.files);
			pick_result_release(&pr);
			return 1;
		}
		git_oid_cpy(&tip, &pr.commit);
		if (fixup)
			p->kept_fixups++;
		else
			p->kept++;
		pick_result_release(&pr);
	}
	git_oid_cpy(&p->tip, &tip);
	return 0;
}
