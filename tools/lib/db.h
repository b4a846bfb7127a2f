/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_DB_H
#define RESPIN_DB_H

#include <stddef.h>
#include <stdint.h>

/*
 * A thin adapter over SQLite: the sqlite3 handle never leaves db.c.
 * Statements are prepared from SQL text, bound by position (1-based),
 * stepped, and read by column (0-based).  Every failure records a
 * message that names the database file.
 */
struct db;
struct db_stmt;

/*
 * Opens (creating if missing) the database at path in WAL mode and
 * runs schema (several statements).  A file that is not a database, or
 * is damaged, is an error that says so: nothing is ever deleted or
 * started over here.
 */
int db_open(struct db **out, const char *path, const char *schema);
void db_close(struct db *db);
const char *db_path(const struct db *db);

int db_exec(struct db *db, const char *sql);
int db_begin(struct db *db);
int db_commit(struct db *db);
void db_rollback(struct db *db);

int db_prepare(struct db *db, struct db_stmt **out, const char *sql);
/*
 * A bind that fails records an error and returns it; the statement
 * then refuses to step (the same error) until db_reset().
 */
int db_bind_text(struct db_stmt *st, int i, const char *s);
int db_bind_blob(struct db_stmt *st, int i, const void *p, size_t len);
int db_bind_int(struct db_stmt *st, int i, int64_t v);
int db_bind_double(struct db_stmt *st, int i, double v);
/* 1 when a row is ready, 0 when done, negative on errors. */
int db_step(struct db_stmt *st);
int db_reset(struct db_stmt *st);
int db_column_count(struct db_stmt *st);
const char *db_column_text(struct db_stmt *st, int i);	/* NULL for NULL */
const void *db_column_blob(struct db_stmt *st, int i, size_t *len);
int64_t db_column_int(struct db_stmt *st, int i);
double db_column_double(struct db_stmt *st, int i);
void db_finalize(struct db_stmt *st);
int64_t db_last_rowid(struct db *db);

#endif
