// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Partial rerolls: "[PATCH v2 2/3]" sent alone in reply to v1's 2/3
 * means v2 is v1 with that patch replaced (b4 reads it so too).  The
 * slots v2 did not resend are filled with v1's messages; such a slot is
 * one whose message belongs to another version (msgs[].version).
 */
#include "series/mailsetpriv.h"
#include "tools/lib/strbuf.h"

#include <string.h>

/* Whether a patch of v answers (In-Reply-To) a patch of version u. */
static int answers(const struct mailset *ms, const struct ms_version *v,
		   long u)
{
	long k;

	for (k = 0; k < v->total; k++) {
		long mi = v->patches[k].msg, p;

		if (mi < 0 || !ms->msgs[mi].irt)
			continue;
		p = mailset_find(ms, ms->msgs[mi].irt);
		if (p >= 0 && ms->msgs[p].kind == MS_PATCH &&
		    ms->msgs[p].version == u)
			return 1;
	}
	return 0;
}

static void fill_from(struct mailset *ms, long vi, long ui)
{
	struct ms_version *v = &ms->versions[vi];
	const struct ms_version *u = &ms->versions[ui];
	struct strbuf sent = STRBUF_INIT, taken = STRBUF_INIT;
	long k;

	for (k = 0; k < v->total; k++) {
		struct strbuf *sb = v->patches[k].msg >= 0 ? &sent : &taken;

		strbuf_addf(sb, "%s%ld/%d", sb->len ? ", " : "", k + 1,
			    v->total);
		if (v->patches[k].msg < 0)
			v->patches[k].msg = u->patches[k].msg;
	}
	ms_note_add(ms, -1, vi, ui, "v%d of \"%s\" resends %s only, in "
		    "reply to v%d; %s taken from v%d", v->number, v->title,
		    sent.buf, u->number, taken.buf, u->number);
	strbuf_release(&sent);
	strbuf_release(&taken);
}

void ms_fill_rerolls(struct mailset *ms, const struct ms_series *s)
{
	size_t i;

	for (i = 1; i < s->nr; i++) {
		long vi = s->versions[i], ui = s->versions[i - 1];
		const struct ms_version *v = &ms->versions[vi];
		const struct ms_version *u = &ms->versions[ui];
		long k, missing = 0, fillable = 0;

		if (v->total != u->total || v->number <= u->number)
			continue;
		for (k = 0; k < v->total; k++)
			if (v->patches[k].msg < 0) {
				missing++;
				fillable += u->patches[k].msg >= 0;
			}
		if (!missing || fillable != missing || !answers(ms, v, ui))
			continue;
		fill_from(ms, vi, ui);
	}
}
