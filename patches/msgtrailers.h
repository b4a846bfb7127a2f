/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_PATCHES_MSGTRAILERS_H
#define RESPIN_PATCHES_MSGTRAILERS_H

#include "patches/patchmail.h"
#include "tools/lib/strbuf.h"

/*
 * Trailers added to a commit message in kernel order: after the
 * trailers it has, but before the submitter's Signed-off-by when that
 * is the last line (the chain of custody ends with the one who sends
 * it); a message without trailers gets a block of its own.  A trailer
 * whose key and address (compared without case) the message has
 * already is not added again, nor one given twice in add.
 *
 * The address of "Name <a@b>" is a@b; a value without <> is compared
 * whole.  Returns how many were added; out gets the new message.
 */
size_t message_add_trailers(const char *msg, const struct trailer_list *add,
			    const char *submitter_addr, struct strbuf *out);

/* Whether msg's trailer block has t (by key and address). */
int message_has_trailer(const char *msg, const struct trailer *t);

/* The address of a trailer value, lower-cased, into out. */
void trailer_value_key(const char *value, struct strbuf *out);

#endif
