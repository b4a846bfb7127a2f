// SPDX-License-Identifier: GPL-2.0-or-later
#include "db.h"
#include "error.h"
#include "strbuf.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

struct db {
	sqlite3 *h;
	char *path;
};

struct db_stmt {
	struct db *db;
	sqlite3_stmt *s;
	/* the first bind that failed since the last reset: step says so */
	int bind_err;
	char *bind_msg;
};

static int db_error(struct db *db, const char *what)
{
	int code = sqlite3_extended_errcode(db->h) & 0xff;

	if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB) {
		error("the results database %s is damaged (%s: %s)", db->path,
		      what, sqlite3_errmsg(db->h));
		error_hint("respin never starts over on its own: move the "
			   "file away (results will be recomputed) or restore "
			   "it from a backup");
		return RESPIN_ERR;
	}
	if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		return error("the results database %s is busy (%s): another "
			     "respin is writing; try again", db->path, what);
	return error("results database %s: %s: %s", db->path, what,
		     sqlite3_errmsg(db->h));
}

/*
 * Turns WAL mode on.  On a new file that takes a lock which SQLite does
 * not wait for (its busy handler is not called while another process
 * is making the same file WAL): the 10 s wait the docs promise is done
 * here, in 20 ms steps.
 */
static int wal_mode(struct db *db)
{
	int tries;

	for (tries = 0; tries < 500; tries++) {
		if (sqlite3_exec(db->h, "PRAGMA journal_mode=WAL", NULL, NULL,
				 NULL) == SQLITE_OK)
			return 0;
		if ((sqlite3_extended_errcode(db->h) & 0xff) != SQLITE_BUSY)
			break;
		sqlite3_sleep(20);
	}
	return db_error(db, "setting WAL mode");
}

int db_open(struct db **out, const char *path, const char *schema)
{
	struct db *db = xcalloc(1, sizeof(*db));
	int r;

	*out = NULL;
	db->path = xstrdup(path);
	r = sqlite3_open_v2(path, &db->h, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (r != SQLITE_OK) {
		r = db->h ? db_error(db, "open") :
			error("cannot open %s: out of memory", path);
		db_close(db);
		return r;
	}
	sqlite3_busy_timeout(db->h, 10000);
	sqlite3_extended_result_codes(db->h, 1);
	/* the first read tells a damaged or foreign file */
	if ((r = wal_mode(db)) < 0 ||
	    (r = db_exec(db, "PRAGMA synchronous=NORMAL")) < 0 ||
	    (r = db_exec(db, "PRAGMA foreign_keys=ON")) < 0 ||
	    (schema && (r = db_exec(db, schema)) < 0)) {
		db_close(db);
		return r;
	}
	*out = db;
	return 0;
}

void db_close(struct db *db)
{
	if (!db)
		return;
	if (db->h)
		sqlite3_close(db->h);
	free(db->path);
	free(db);
}

const char *db_path(const struct db *db)
{
	return db->path;
}

int db_exec(struct db *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
		int r = db_error(db, "exec");

		sqlite3_free(msg);
		return r;
	}
	return 0;
}

int db_begin(struct db *db)
{
	return db_exec(db, "BEGIN IMMEDIATE");
}

int db_commit(struct db *db)
{
	return db_exec(db, "COMMIT");
}

void db_rollback(struct db *db)
{
	sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
}

int db_prepare(struct db *db, struct db_stmt **out, const char *sql)
{
	struct db_stmt *st = xcalloc(1, sizeof(*st));

	st->db = db;
	if (sqlite3_prepare_v2(db->h, sql, -1, &st->s, NULL) != SQLITE_OK) {
		free(st);
		*out = NULL;
		return db_error(db, "prepare");
	}
	*out = st;
	return 0;
}

/*
 * A failed bind is an error when it happens and again at the next
 * step, so that a statement never runs with a parameter left unbound
 * (NULL), whether or not the caller looked at the bind's result.
 */
static int bind_result(struct db_stmt *st, int r)
{
	if (r == SQLITE_OK)
		return 0;
	r = db_error(st->db, "bind");
	if (!st->bind_err) {
		st->bind_err = r;
		st->bind_msg = xstrdup(error_last());
	}
	return r;
}

static void bind_clear(struct db_stmt *st)
{
	st->bind_err = 0;
	free(st->bind_msg);
	st->bind_msg = NULL;
}

int db_bind_text(struct db_stmt *st, int i, const char *s)
{
	if (!s)
		return bind_result(st, sqlite3_bind_null(st->s, i));
	return bind_result(st, sqlite3_bind_text(st->s, i, s, -1,
						 SQLITE_TRANSIENT));
}

int db_bind_blob(struct db_stmt *st, int i, const void *p, size_t len)
{
	return bind_result(st, sqlite3_bind_blob64(st->s, i, p, len,
						   SQLITE_TRANSIENT));
}

int db_bind_int(struct db_stmt *st, int i, int64_t v)
{
	return bind_result(st, sqlite3_bind_int64(st->s, i, v));
}

int db_bind_double(struct db_stmt *st, int i, double v)
{
	return bind_result(st, sqlite3_bind_double(st->s, i, v));
}

int db_step(struct db_stmt *st)
{
	int r;

	if (st->bind_err)
		return error_code(st->bind_err, "%s", st->bind_msg);
	r = sqlite3_step(st->s);

	if (r == SQLITE_ROW)
		return 1;
	if (r == SQLITE_DONE)
		return 0;
	return db_error(st->db, "step");
}

int db_reset(struct db_stmt *st)
{
	sqlite3_reset(st->s);
	sqlite3_clear_bindings(st->s);
	bind_clear(st);
	return 0;
}

int db_column_count(struct db_stmt *st)
{
	return sqlite3_column_count(st->s);
}

const char *db_column_text(struct db_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st->s, i);
}

const void *db_column_blob(struct db_stmt *st, int i, size_t *len)
{
	const void *p = sqlite3_column_blob(st->s, i);

	*len = (size_t)sqlite3_column_bytes(st->s, i);
	return p;
}

int64_t db_column_int(struct db_stmt *st, int i)
{
	return sqlite3_column_int64(st->s, i);
}

double db_column_double(struct db_stmt *st, int i)
{
	return sqlite3_column_double(st->s, i);
}

void db_finalize(struct db_stmt *st)
{
	if (!st)
		return;
	sqlite3_finalize(st->s);
	bind_clear(st);
	free(st);
}

int64_t db_last_rowid(struct db *db)
{
	return sqlite3_last_insert_rowid(db->h);
}
