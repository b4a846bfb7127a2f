// SPDX-License-Identifier: GPL-2.0-or-later
#include "bisect/report.h"
#include "tools/lib/termsafe.h"

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

void bisect_add_safe(struct strbuf *out, const struct strbuf *text)
{
	strbuf_add_term_safe(out, text->buf, text->len, TERM_SAFE_LINES);
}
