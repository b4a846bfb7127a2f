// SPDX-License-Identifier: GPL-2.0-or-later
#include "nm.h"
#include "error.h"
#include "strbuf.h"

#include <errno.h>
#include <notmuch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*
 * ": MSG" from one of notmuch's messages, which may start with
 * "Error: " and run over several lines.
 */
static const char *tidy(struct strbuf *sb, const char *msg)
{
	strbuf_reset(sb);
	if (!msg || !*msg)
		return "";
	if (!strncmp(msg, "Error: ", 7))
		msg += 7;
	strbuf_addstr(sb, ": ");
	/* the first line; the rest repeats what we say anyway */
	strbuf_add(sb, msg, strcspn(msg, "\n"));
	strbuf_rtrim(sb);
	if (sb->len && sb->buf[sb->len - 1] == '.')
		strbuf_setlen(sb, sb->len - 1);
	return sb->buf;
}

static int open_db(const char *db_path, notmuch_database_t **db)
{
	struct strbuf why = STRBUF_INIT;
	notmuch_status_t st;
	char *msg = NULL;
	struct stat s;
	int ret = 0;

	st = notmuch_database_open_with_config(db_path,
					       NOTMUCH_DATABASE_MODE_READ_ONLY,
					       db_path ? "" : NULL, NULL, db,
					       &msg);
	if (st == NOTMUCH_STATUS_SUCCESS)
		goto out;
	*db = NULL;
	if (db_path && stat(db_path, &s) < 0) {
		ret = error_errno("no notmuch database at '%s'", db_path);
	} else if (db_path) {
		ret = error("no notmuch database at '%s'%s", db_path,
			    tidy(&why, msg));
		error_hint("create one with `notmuch new` "
			   "(database.path = %s in its config file)", db_path);
	} else if (st == NOTMUCH_STATUS_NO_CONFIG) {
		ret = error("no notmuch configuration found%s",
			    tidy(&why, msg));
		error_hint("run `notmuch setup` and `notmuch new`, "
			   "or name the database");
	} else {
		ret = error("cannot open your notmuch database%s (%s)",
			    tidy(&why, msg), notmuch_status_to_string(st));
		error_hint("create it with `notmuch new`");
	}
out:
	free(msg);
	strbuf_release(&why);
	return ret;
}

int nm_query_files(const char *db_path, const char *query,
		   int (*fn)(const char *path, void *data), void *data)
{
	struct strbuf why = STRBUF_INIT;
	notmuch_database_t *db;
	notmuch_query_t *q = NULL;
	notmuch_messages_t *msgs = NULL;
	notmuch_status_t st;
	int ret;

	ret = open_db(db_path, &db);
	if (ret)
		return ret;
	q = notmuch_query_create(db, query);
	if (!q) {
		ret = error("out of memory creating a notmuch query");
		goto out;
	}
	notmuch_query_set_sort(q, NOTMUCH_SORT_OLDEST_FIRST);
	st = notmuch_query_search_messages(q, &msgs);
	if (st != NOTMUCH_STATUS_SUCCESS) {
		ret = error("notmuch query '%s' failed%s", query,
			    tidy(&why, notmuch_database_status_string(db)));
		if (!why.len)
			error("notmuch query '%s' failed: %s", query,
			      notmuch_status_to_string(st));
		goto out;
	}
	for (; notmuch_messages_valid(msgs) && !ret;
	     notmuch_messages_move_to_next(msgs)) {
		notmuch_message_t *m = notmuch_messages_get(msgs);
		notmuch_filenames_t *names;

		if (!m) {
			ret = error("notmuch query '%s': cannot read a message",
				    query);
			break;
		}
		names = notmuch_message_get_filenames(m);
		for (; names && notmuch_filenames_valid(names) && !ret;
		     notmuch_filenames_move_to_next(names))
			ret = fn(notmuch_filenames_get(names), data);
		if (names)
			notmuch_filenames_destroy(names);
		notmuch_message_destroy(m);
	}
out:
	if (q)
		notmuch_query_destroy(q);	/* frees msgs too */
	notmuch_database_destroy(db);
	strbuf_release(&why);
	return ret;
}
