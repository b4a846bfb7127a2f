// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/replacetags.h"
#include "review/trailers.h"
#include "tools/lib/error.h"

#include <stdlib.h>
#include <string.h>

int replace_given_tags(git_repository *repo, struct series *s,
		       struct series_version *to, void *data,
		       struct carry_given_list *given, struct strbuf *notes)
{
	const char *source = data;
	struct strbuf def = STRBUF_INIT, note = STRBUF_INIT;
	struct trailers_report rep;
	size_t i, k;
	int r;

	if (!source) {
		trailers_default_source(s, to, &def);
		source = def.len ? def.buf : NULL;
	}
	if (!source) {
		strbuf_addf(notes, "review tags: none looked for (neither %s "
			    "v%d nor an earlier version was sent)\n", s->name,
			    to->number);
		strbuf_release(&def);
		return 0;
	}
	r = trailers_collect(repo, s, to, source, 0, &rep);
	if (r < 0) {
		strbuf_addf(notes, "review tags: not collected: %s (--source "
			    "names the mail)\n", error_last());
		error_clear();
		trailers_report_release(&rep);
		strbuf_release(&def);
		return 0;
	}
	strbuf_add(notes, rep.notes.buf, rep.notes.len);
	for (i = 0; i < rep.nr && i < to->nr_patches; i++)
		for (k = 0; k < rep.patches[i].nr; k++) {
			const struct given *g = &rep.patches[i].items[k];

			if (g->state == GIVEN_NOT_CARRIED)
				continue;
			strbuf_reset(&note);
			if (g->given_to)
				strbuf_addf(&note, "given to v%d %zu/%zu",
					    g->version, g->given_to,
					    g->given_total);
			else
				strbuf_addf(&note, "given to v%d's cover letter",
					    g->version);
			carry_given_add(&given[i], g->key, g->value, note.buf);
		}
	trailers_report_release(&rep);
	strbuf_release(&def);
	strbuf_release(&note);
	return 0;
}
