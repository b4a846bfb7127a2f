// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The results store keeps a result's status as text (PASS, FAIL, ...),
 * as every respin before the status enum wrote it: a row written as
 * text reads back as its status, a status stored is the same text, and
 * a text this respin does not know is an error, never "not stored".
 */
#include "tap.h"
#include "ci/results.h"
#include "tools/lib/db.h"
#include "tools/lib/error.h"

#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = { "PASS", "FAIL", "SKIP", "ERROR",
				     "TIMEOUT" };

static void test_names(void)
{
	enum result_status s;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		is_str(result_status_name((enum result_status)i), names[i],
		       "status %zu is named %s", i, names[i]);
		ok(!result_status_parse(names[i], &s) &&
		   s == (enum result_status)i, "%s parses back", names[i]);
	}
	is_str(result_status_name((enum result_status)99), "?",
	       "no such status: ?");
	is_int(result_status_parse("pass", &s), RESPIN_ENOTFOUND,
	       "names are exact (upper case)");
	is_int(result_status_parse(NULL, &s), RESPIN_ENOTFOUND, "NULL: none");
}

/* The status column of the row (def, key), read with plain SQL. */
static void stored_text(const char *path, const char *key, char *out,
			size_t len)
{
	struct db *db;
	struct db_stmt *st;

	*out = '\0';
	if (db_open(&db, path, NULL) < 0)
		return;
	if (!db_prepare(db, &st, "SELECT status FROM results WHERE key = ?1")) {
		db_bind_text(st, 1, key);
		if (db_step(st) == 1 && db_column_text(st, 0))
			snprintf(out, len, "%s", db_column_text(st, 0));
		db_finalize(st);
	}
	db_close(db);
}

static void test_store(void)
{
	char dir[] = "/tmp/respin-t-results.XXXXXX", path[256], text[32];
	char key[32], sql[256];
	char check[] = "c", def_hash[] = "d", summary[] = "s";
	git_repository *repo = NULL;
	struct results *rs = NULL;
	struct result res, got;
	struct db *db;
	size_t i;

	if (!mkdtemp(dir) || git_repository_init(&repo, dir, 0) < 0 ||
	    results_open(repo, &rs) < 0) {
		ok(0, "a results store in a new repository: %s", error_last());
		return;
	}
	snprintf(path, sizeof(path), "%s/.git/respin/results.db", dir);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		memset(&res, 0, sizeof(res));
		snprintf(key, sizeof(key), "tree:%zu", i);
		res.check = check;
		res.def_hash = def_hash;
		res.key = key;
		res.status = (enum result_status)i;
		res.summary = summary;
		ok(!results_put(rs, &res, "log", 3), "%s stored", names[i]);
		stored_text(path, key, text, sizeof(text));
		is_str(text, names[i], "stored as the text %s", names[i]);
		ok(!results_get(rs, "d", key, &got) &&
		   got.status == (enum result_status)i, "%s read back",
		   names[i]);
		result_release(&got);
	}
	/* rows as an older respin wrote them, one with a text unknown here */
	if (!db_open(&db, path, NULL)) {
		for (i = 0; i < 2; i++) {
			snprintf(sql, sizeof(sql), "INSERT INTO results "
				 "(check_name, def_hash, key, status, summary) "
				 "VALUES ('old', 'd', 'old:%zu', '%s', 'x')",
				 i, i ? "FLAKY" : "FAIL");
			db_exec(db, sql);
		}
		db_close(db);
	}
	ok(!results_get(rs, "d", "old:0", &got) && got.status == RESULT_FAIL &&
	   !strcmp(got.summary, "x"), "a row written as text FAIL reads FAIL");
	result_release(&got);
	is_int(results_get(rs, "d", "old:1", &got), RESPIN_ERR,
	       "an unknown status is an error, not 'not stored'");
	ok(strstr(error_last(), "status 'FLAKY'") != NULL,
	   "it names the status: %s", error_last());
	error_clear();
	result_release(&got);
	results_close(rs);
	git_repository_free(repo);
	snprintf(sql, sizeof(sql), "rm -rf '%s'", dir);
	if (system(sql))
		diag("could not remove the test repository");
}

int main(void)
{
	git_libgit2_init();
	test_names();
	test_store();
	git_libgit2_shutdown();
	return done_testing();
}
