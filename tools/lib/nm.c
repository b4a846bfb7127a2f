// SPDX-License-Identifier: GPL-2.0-or-later
#include "nm.h"
#include "error.h"
#include "strbuf.h"

#include <errno.h>
#include <notmuch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dl.h"

/*
 * libnotmuch is loaded on first use (see dl.h): the calls below go
 * through these pointers, filled by nm_load().
 */
#define NM_FUNCS(X) \
	X(notmuch_database_destroy) \
	X(notmuch_database_open_with_config) \
	X(notmuch_database_status_string) \
	X(notmuch_filenames_destroy) \
	X(notmuch_filenames_get) \
	X(notmuch_filenames_move_to_next) \
	X(notmuch_filenames_valid) \
	X(notmuch_message_destroy) \
	X(notmuch_message_get_filenames) \
	X(notmuch_messages_get) \
	X(notmuch_messages_move_to_next) \
	X(notmuch_messages_valid) \
	X(notmuch_query_create) \
	X(notmuch_query_destroy) \
	X(notmuch_query_search_messages) \
	X(notmuch_query_set_sort) \
	X(notmuch_status_to_string) \

#define NM_PTR(f) __typeof__(&f) f;
static struct {
	int loaded;
	NM_FUNCS(NM_PTR)
} nm;
#undef NM_PTR

static int nm_load(void)
{
#define NM_NAME(f) #f,
#define NM_ADDR(f) (void **)&nm.f,
	static const char *const names[] = { NM_FUNCS(NM_NAME) };
	void **const ptrs[] = { NM_FUNCS(NM_ADDR) };
	int r;
#undef NM_NAME
#undef NM_ADDR

	if (nm.loaded)
		return 0;
	r = dl_load("libnotmuch.so.5", "libnotmuch5", names, ptrs,
		    sizeof(names) / sizeof(*names));
	if (r < 0)
		return r;
	nm.loaded = 1;
	return 0;
}

#define notmuch_database_destroy nm.notmuch_database_destroy
#define notmuch_database_open_with_config nm.notmuch_database_open_with_config
#define notmuch_database_status_string nm.notmuch_database_status_string
#define notmuch_filenames_destroy nm.notmuch_filenames_destroy
#define notmuch_filenames_get nm.notmuch_filenames_get
#define notmuch_filenames_move_to_next nm.notmuch_filenames_move_to_next
#define notmuch_filenames_valid nm.notmuch_filenames_valid
#define notmuch_message_destroy nm.notmuch_message_destroy
#define notmuch_message_get_filenames nm.notmuch_message_get_filenames
#define notmuch_messages_get nm.notmuch_messages_get
#define notmuch_messages_move_to_next nm.notmuch_messages_move_to_next
#define notmuch_messages_valid nm.notmuch_messages_valid
#define notmuch_query_create nm.notmuch_query_create
#define notmuch_query_destroy nm.notmuch_query_destroy
#define notmuch_query_search_messages nm.notmuch_query_search_messages
#define notmuch_query_set_sort nm.notmuch_query_set_sort
#define notmuch_status_to_string nm.notmuch_status_to_string

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

	ret = nm_load();
	if (ret < 0)
		return ret;
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
