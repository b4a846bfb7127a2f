/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_NM_H
#define RESPIN_NM_H

/*
 * Mail from a notmuch database, through libnotmuch (the handle never
 * leaves nm.c).
 *
 * db_path is the database's mail root (the directory that holds
 * .notmuch, what `notmuch config get database.path` prints); the user's
 * notmuch configuration is then ignored.  NULL means the user's own
 * database, found the way notmuch(1) finds it (NOTMUCH_CONFIG,
 * ~/.notmuch-config, NOTMUCH_PROFILE...).
 *
 * nm_query_files() opens the database read-only, runs query (notmuch's
 * search syntax, e.g. "thread:{id:x@y}" or "subject:spinlock") and calls
 * fn(path, data) for each file of each matching message, oldest message
 * first (a message delivered twice has several files; each is passed).
 * path is borrowed for the length of the call.  fn returns 0 to go on;
 * anything else stops the walk and is returned as it is (so a callback
 * that fails with error() passes its code up).
 *
 * Returns 0 when the walk ended, fn's value when fn stopped it, or
 * RESPIN_ERR with a message (no database there, a bad query...).
 * A query that matches nothing is not an error.
 */
int nm_query_files(const char *db_path, const char *query,
		   int (*fn)(const char *path, void *data), void *data);

#endif
