/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_BISECT_REPORT_H
#define RESPIN_BISECT_REPORT_H

#include "series/store.h"
#include "tools/lib/strbuf.h"

/* What the answers of respin bisect (tests and benches) print with. */

/* "3/4", with the title "3/4 "title"", or "the base" (i 0). */
void bisect_position_name(struct strbuf *out, const struct series_version *v,
			  size_t i, int title);

/*
 * The patch a bisection blames, for the line a reply quotes: "3/6
 * 1a2b3c4d5e6f \"title\"" (the commit's short id when it has one).
 */
void bisect_culprit_name(struct strbuf *out, const struct series_version *v,
			 size_t i);

#endif
