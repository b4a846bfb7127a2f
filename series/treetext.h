/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_SERIES_TREETEXT_H
#define RESPIN_SERIES_TREETEXT_H

/*
 * The text respin tree reads out of commits of an integration branch
 * (messages that came from mail): the Message-IDs they name, the patch a
 * "-fix" commit fixes, and the slug of a title.
 */

/*
 * The quilt name of a title as akpm's mm tree makes it (owned):
 * "mm/lru_gen: add foo()" -> "mm-lru_gen-add-foo".
 */
char *tree_slug(const char *title);

/*
 * Calls fn with each Message-ID msg names: the last part of a "Link:"
 * URL that holds an '@' (%XX decoded), the inside of "Message-Id: <>".
 */
void tree_message_ids(const char *msg,
		      void (*fn)(const char *id, void *d), void *d);

/*
 * "T-fix", "T-fix-2", "T-fix-fix", each also with ".patch" (a quilt
 * file's name) -> "T" (owned); NULL when it is none.
 */
char *tree_fixup_target(const char *subject);

#endif
