// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The SQLite adapter (tools/lib/db.c): a bind that fails keeps the
 * statement from running, whether or not its caller looked at the
 * bind's result, until the statement is reset.
 */
#include "tap.h"
#include "tools/lib/db.h"
#include "tools/lib/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t count_rows(struct db *db)
{
	struct db_stmt *st;
	int64_t n = -1;

	if (!db_prepare(db, &st, "SELECT count(*) FROM t")) {
		if (db_step(st) == 1)
			n = db_column_int(st, 0);
		db_finalize(st);
	}
	return n;
}

static void test_failed_bind(const char *path)
{
	struct db *db = NULL;
	struct db_stmt *st = NULL;
	int r;

	if (db_open(&db, path, "CREATE TABLE t (a TEXT NOT NULL DEFAULT 'x', "
		    "b TEXT);") < 0 ||
	    db_prepare(db, &st, "INSERT INTO t (b) VALUES (?1)") < 0) {
		ok(0, "a database and a statement: %s", error_last());
		db_close(db);
		return;
	}
	r = db_bind_text(st, 2, "no such parameter");

	ok(r < 0 && strstr(error_last(), "bind"),
	   "binding parameter 2 of 1 fails: %s", error_last());
	error_clear();
	ok(db_step(st) < 0 && strstr(error_last(), "bind"),
	   "the statement then refuses to step, saying why");
	is_int(count_rows(db), 0, "nothing was written");
	db_reset(st);
	ok(!db_bind_text(st, 1, "b") && db_step(st) == 0,
	   "after a reset it binds and runs");
	is_int(count_rows(db), 1, "one row written");
	db_finalize(st);
	db_close(db);
}

int main(void)
{
	char dir[] = "/tmp/respin-t-db.XXXXXX", path[256], cmd[300];

	if (!mkdtemp(dir)) {
		skip("no temporary directory");
		return done_testing();
	}
	snprintf(path, sizeof(path), "%s/test.db", dir);
	test_failed_bind(path);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		diag("could not remove the test directory");
	return done_testing();
}
