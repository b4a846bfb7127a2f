/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_STORETEXT_H
#define RESPIN_SERIES_STORETEXT_H

#include "series/store.h"

/*
 * The texts the series store keeps in git (series/store.c writes and
 * reads them; these functions touch no repository).  Each is lines of
 * "key value"; a line this respin does not know is kept in the extra
 * lines of what it belongs to and written back as it was.
 */

/* vN/meta: a version's base, tip, how it was sent, one line a patch. */
void series_version_format(const struct series_version *v, struct strbuf *out);
/*
 * Parses vN/meta into v (v->number, when set, must match); marks v
 * loaded.
 */
int series_version_parse_meta(struct series_version *v, const char *buf,
			      size_t len);

/* The "series" blob: name, change-id, base ref, when it was created. */
void series_text_format(const struct series *s, struct strbuf *out);
int series_text_parse(struct series *s, const char *buf, size_t len);

/*
 * A metadata commit's message: message, then the summary respin list
 * reads ("Series:", "Latest:", "Versions:", "Patches:", "Rebased-From:",
 * "Base-Ref:", "Change-Id:" lines), and that summary read back.
 */
void series_summary_format(const struct series *s, const char *message,
			   struct strbuf *out);
void series_summary_parse(struct series_summary *sm, const char *msg,
			  size_t len);

#endif
