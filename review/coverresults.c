// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/coverresults.h"
#include "ci/benchtable.h"
#include "ci/kind.h"
#include "tools/lib/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int column_used(const struct grid *g, size_t k)
{
	size_t i;

	for (i = 0; i <= g->v->nr_patches; i++)
		if (grid_cell(g, i, k)->have)
			return 1;
	return 0;
}

static void position_label(struct strbuf *out, const struct grid *g, size_t i)
{
	if (i == 0)
		strbuf_addstr(out, "base");
	else
		strbuf_addf(out, "%zu/%zu", i, g->v->nr_patches);
}

void cover_results_table(struct strbuf *out, const struct check_list *checks,
			 const struct grid *g)
{
	size_t n = g->v->nr_patches, i, k, labelw = 4;
	size_t *width = xcalloc(checks->nr + 1, sizeof(*width));
	struct strbuf cell = STRBUF_INIT, label = STRBUF_INIT;

	for (i = 0; i <= n; i++) {
		strbuf_reset(&label);
		position_label(&label, g, i);
		if (label.len > labelw)
			labelw = label.len;
	}
	for (k = 0; k < checks->nr; k++) {
		if (!column_used(g, k))
			continue;
		width[k] = strlen(checks->items[k].name);
		for (i = 0; i <= n; i++) {
			strbuf_reset(&cell);
			grid_cell_text(&cell, &checks->items[k],
				       grid_cell(g, i, k), i);
			if (cell.len > width[k])
				width[k] = cell.len;
		}
	}
	strbuf_addf(out, "%-*s", (int)labelw, "");
	for (k = 0; k < checks->nr; k++)
		if (width[k])
			strbuf_addf(out, "  %-*s", (int)width[k],
				    checks->items[k].name);
	strbuf_rtrim(out);
	strbuf_addch(out, '\n');
	for (i = 0; i <= n; i++) {
		strbuf_reset(&label);
		position_label(&label, g, i);
		strbuf_addf(out, "%-*s", (int)labelw, label.buf);
		for (k = 0; k < checks->nr; k++) {
			if (!width[k])
				continue;
			strbuf_reset(&cell);
			grid_cell_text(&cell, &checks->items[k],
				       grid_cell(g, i, k), i);
			strbuf_addf(out, "  %-*s", (int)width[k], cell.buf);
		}
		strbuf_rtrim(out);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&cell);
	strbuf_release(&label);
	free(width);
}

void cover_bench_tables(struct strbuf *out, const struct check_list *checks,
			const struct grid *g, const struct grid *prev)
{
	size_t k, before;

	for (k = 0; k < checks->nr; k++) {
		const struct check *c = &checks->items[k];

		if (check_kind_ops(c->kind)->results != KIND_RESULTS_SAMPLES ||
		    !column_used(g, k))
			continue;
		if (out->len)
			strbuf_addch(out, '\n');
		before = out->len;
		bench_table_by_patch(out, c, g, k);
		if (prev && prev->cells && k < prev->ncols) {
			if (out->len > before)
				strbuf_addch(out, '\n');
			bench_table_by_version(out, c, g, prev, k);
		}
	}
}
