// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * db-sql: runs SQL statements on a database through respin's SQLite
 * adapter and prints each row, its columns separated by tabs, so that
 * tests need no sqlite3 program.
 *
 *	db-sql PATH SQL...
 *
 * Each SQL argument is one statement.  "db-sql .git/respin/results.db
 * 'PRAGMA integrity_check'" prints "ok" for a sound database.  Exits 0,
 * or 128 with the adapter's message.
 */
#include "tools/lib/db.h"
#include "tools/lib/error.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	struct db *db;
	int i, k, r;

	if (argc < 3) {
		fprintf(stderr, "usage: db-sql PATH SQL...\n");
		return 129;
	}
	if (db_open(&db, argv[1], NULL) < 0)
		return error_report(RESPIN_ERR);
	for (i = 2; i < argc; i++) {
		struct db_stmt *st;

		if (db_prepare(db, &st, argv[i]) < 0) {
			db_close(db);
			return error_report(RESPIN_ERR);
		}
		while ((r = db_step(st)) == 1) {
			for (k = 0; k < db_column_count(st); k++) {
				const char *t = db_column_text(st, k);

				printf("%s%s", k ? "\t" : "", t ? t : "NULL");
			}
			putchar('\n');
		}
		db_finalize(st);
		if (r < 0) {
			db_close(db);
			return error_report(RESPIN_ERR);
		}
	}
	db_close(db);
	return 0;
}
