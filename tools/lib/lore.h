/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_LORE_H
#define RESPIN_LORE_H

#include <stddef.h>

struct strbuf;

/*
 * Mail from a public-inbox server such as lore.kernel.org, over HTTP(S)
 * (see http.h for timeouts and retries).
 *
 * base_url is an inbox URL such as "https://lore.kernel.org/all" (the
 * caller's default, from git config respin.lore-url); a trailing "/" is
 * ignored.  msgid is a Message-ID with or without its angle brackets;
 * it is percent-encoded the way public-inbox expects ("/" becomes %2F).
 *
 * cache_dir, when not NULL, is respin's cache directory (see
 * lore_cache_dir()): answers are kept in CACHE_DIR/lore/<blob id of the
 * URL>.mbox and later calls read them from there without asking the
 * server, unless flags has LORE_REFRESH.
 *
 * Both return 0 and append to out, RESPIN_ENOTFOUND when the server
 * has no such message ("no thread <msgid> at URL"), RESPIN_EUSAGE for
 * an unusable Message-ID, or RESPIN_ERR (the message names the URL).
 */
#define LORE_REFRESH	(1u << 0)	/* ignore (and rewrite) the cache */

/* GET BASE/MSGID/t.mbox.gz: the whole thread as an mboxrd, inflated. */
int lore_thread_fetch(const char *base_url, const char *msgid,
		      const char *cache_dir, unsigned flags,
		      struct strbuf *mbox_out);

/* GET BASE/MSGID/raw: the one message (public-inbox adds a From line). */
int lore_raw_fetch(const char *base_url, const char *msgid,
		   const char *cache_dir, unsigned flags,
		   struct strbuf *out);

/*
 * POST BASE/?q=QUERY&x=m&t=1: every thread holding a message that the
 * public-inbox search QUERY (Xapian's syntax, such as
 * 's:"a title" AND f:"a@example.org"') finds, as an mboxrd, inflated.
 * QUERY is percent-encoded here, whatever it holds.  Cached as threads
 * are, "nothing found" too.  Returns 0 (out holds at least one
 * message), RESPIN_ENOTFOUND when nothing matched (HTTP 404),
 * LORE_ENOSEARCH when the server has no search there (HTTP 501 from a
 * public-inbox indexed without Xapian, 400, 403, 405, 410, or a 200
 * answer that is no mbox, such as an HTML page), else RESPIN_ERR (a
 * timeout, a server error; the message names the URL).
 */
#define LORE_ENOSEARCH	(-16)
int lore_search_fetch(const char *base_url, const char *query,
		      const char *cache_dir, unsigned flags,
		      struct strbuf *mbox_out);
/*
 * Appends text (a subject from mail) as what may stand between the
 * quotes of a search phrase: no '"' (it would end the phrase), control
 * characters and runs of blanks as one blank, at most max bytes (cut
 * at a blank).  Appends nothing when no letter or digit is left.
 */
void lore_query_phrase(struct strbuf *out, const char *text, size_t max);
/* Appends the URL lore_search_fetch() asks; RESPIN_EUSAGE if empty. */
int lore_search_url(struct strbuf *url, const char *base_url,
		    const char *query);

/*
 * Appends msgid (angle brackets and surrounding blanks dropped) to out
 * percent-encoded for a public-inbox URL.  Returns RESPIN_EUSAGE for an
 * empty Message-ID.
 */
int lore_msgid_escape(struct strbuf *out, const char *msgid);

/*
 * Appends respin's cache directory to out: $RESPIN_CACHE, else
 * $XDG_CACHE_HOME/respin, else $HOME/.cache/respin.  Returns
 * RESPIN_ERR when none of them is set.
 */
int lore_cache_dir(struct strbuf *out);

#endif
