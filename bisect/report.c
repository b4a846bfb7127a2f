// SPDX-License-Identifier: GPL-2.0-or-later
#include "bisect/report.h"
#include "tools/lib/repo.h"

void bisect_position_name(struct strbuf *out, const struct series_version *v,
			  size_t i, int title)
{
	if (!i) {
		strbuf_addstr(out, "the base");
		return;
	}
	strbuf_addf(out, "%zu/%zu", i, v->nr_patches);
	if (title && v->patches[i - 1].subject)
		strbuf_addf(out, " \"%s\"", v->patches[i - 1].subject);
}

void bisect_culprit_name(struct strbuf *out, const struct series_version *v,
			 size_t i)
{
	const struct series_patch *p;

	if (!i || i > v->nr_patches) {
		bisect_position_name(out, v, i, 1);
		return;
	}
	p = &v->patches[i - 1];
	strbuf_addf(out, "%zu/%zu", i, v->nr_patches);
	if (!git_oid_is_zero(&p->commit))
		strbuf_addf(out, " %s", oid_short(&p->commit, 12));
	if (p->subject)
		strbuf_addf(out, " \"%s\"", p->subject);
}
