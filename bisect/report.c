// SPDX-License-Identifier: GPL-2.0-or-later
#include "bisect/report.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>

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

void bisect_puts_safe(const struct strbuf *text)
{
	struct strbuf safe = STRBUF_INIT;

	strbuf_add_term_safe(&safe, text->buf, text->len, TERM_SAFE_LINES);
	fputs(safe.buf, stdout);
	strbuf_release(&safe);
}
