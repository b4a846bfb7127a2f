/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_PATCHES_MSGTRAILERS_H
#define RESPIN_PATCHES_MSGTRAILERS_H

#include "patches/patchmail.h"
#include "tools/lib/strbuf.h"

/*
 * Trailers added to a commit message in kernel order: after the
 * trailers it has, but before the submitter's Signed-off-by when that
 * is the last line (the chain of custody ends with the one who sends
 * it); a message without trailers gets a block of its own; notes under
 * a "---" line stay below the block.  A trailer
 * whose key and address (compared without case) the message has
 * already is not added again, nor one given twice in add.
 *
 * The address of "Name <a@b>" is a@b; a value without <> is compared
 * whole.  Returns how many were added; out gets the new message.
 */
size_t message_add_trailers(const char *msg, const struct trailer_list *add,
			    const char *submitter_addr, struct strbuf *out);

/*
 * Where the notes under a "---" line of a commit message start (git
 * interpret-trailers' rule: a line "---" or "--- ..." after the
 * subject); strlen(msg) when it has none.  message_add_trailers() puts
 * the trailers above them and keeps them as they are.
 */
size_t message_notes_start(const char *msg);

/*
 * msg without the lines of its trailer block that are one of drop (by
 * key and address); returns how many lines went.
 */
size_t message_drop_trailers(const char *msg, const struct trailer_list *drop,
			     struct strbuf *out);

/* Whether msg's trailer block has t (by key and address). */
int message_has_trailer(const char *msg, const struct trailer *t);

/* The address of a trailer value, lower-cased, into out. */
void trailer_value_key(const char *value, struct strbuf *out);

#endif
