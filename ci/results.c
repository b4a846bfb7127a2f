// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/results.h"
#include "tools/lib/db.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

struct results {
	struct db *db;
};

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS results ("
	"  id INTEGER PRIMARY KEY,"
	"  check_name TEXT NOT NULL,"
	"  def_hash TEXT NOT NULL,"
	"  key TEXT NOT NULL,"
	"  status TEXT NOT NULL,"
	"  summary TEXT,"
	"  details TEXT,"
	"  duration REAL,"
	"  created INTEGER,"
	"  log BLOB,"
	"  log_size INTEGER,"
	"  UNIQUE (def_hash, key));"
	"CREATE TABLE IF NOT EXISTS samples ("
	"  def_hash TEXT NOT NULL,"
	"  key TEXT NOT NULL,"
	"  value REAL NOT NULL);"
	"CREATE INDEX IF NOT EXISTS samples_by_key ON samples (def_hash, key);";

static const char *const status_names[] = {
	[RESULT_PASS] = "PASS",
	[RESULT_FAIL] = "FAIL",
	[RESULT_SKIP] = "SKIP",
	[RESULT_ERROR] = "ERROR",
	[RESULT_TIMEOUT] = "TIMEOUT",
};

const char *result_status_name(enum result_status s)
{
	if ((size_t)s >= sizeof(status_names) / sizeof(status_names[0]))
		return "?";
	return status_names[s];
}

int result_status_parse(const char *name, enum result_status *out)
{
	size_t i;

	for (i = 0; name && i < sizeof(status_names) / sizeof(status_names[0]);
	     i++) {
		if (!strcmp(status_names[i], name)) {
			*out = (enum result_status)i;
			return 0;
		}
	}
	return RESPIN_ENOTFOUND;
}

void result_release(struct result *r)
{
	free(r->check);
	free(r->def_hash);
	free(r->key);
	free(r->summary);
	free(r->details);
	memset(r, 0, sizeof(*r));
}

/*
 * A database that has some of respin's tables but not all lost one (a
 * table dropped): made again empty, it would read as "nothing stored"
 * and every check would run again.  A new file has none.
 */
static int tables_whole(struct db *db)
{
	static const char *const tables[] = { "results", "samples" };
	struct db_stmt *st;
	int have[2] = { 0, 0 }, r;
	size_t i;

	r = db_prepare(db, &st, "SELECT name FROM sqlite_master WHERE "
		       "type = 'table'");
	if (r < 0)
		return r;
	while ((r = db_step(st)) == 1) {
		const char *name = db_column_text(st, 0);

		for (i = 0; name && i < 2; i++)
			if (!strcmp(name, tables[i]))
				have[i] = 1;
	}
	db_finalize(st);
	if (r < 0)
		return r;
	if (have[0] == have[1])
		return 0;
	error("the results database %s is damaged: it has no table %s",
	      db_path(db), tables[have[0] ? 1 : 0]);
	error_hint("respin never starts over on its own: move the file away "
		   "(results will be recomputed) or restore it from a backup");
	return RESPIN_ERR;
}

int results_open(git_repository *repo, struct results **out)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;
	struct results *rs;
	int r;

	*out = NULL;
	strbuf_addf(&dir, "%srespin", git_repository_commondir(repo));
	if (mkdir(dir.buf, 0777) < 0 && errno != EEXIST) {
		r = error_errno("cannot make %s", dir.buf);
		goto out;
	}
	strbuf_addf(&path, "%s/results.db", dir.buf);
	rs = xcalloc(1, sizeof(*rs));
	r = db_open(&rs->db, path.buf, NULL);
	if (r < 0) {
		free(rs);
		goto out;
	}
	/*
	 * Looked at and made in one write transaction: another respin
	 * making the schema at the same moment is waited for, never seen
	 * half done (results made, samples not yet).
	 */
	r = db_begin(rs->db);
	if (!r) {
		r = tables_whole(rs->db);
		if (!r)
			r = db_exec(rs->db, schema);
		if (!r)
			r = db_commit(rs->db);
		else
			db_rollback(rs->db);
	}
	if (r < 0) {
		db_close(rs->db);
		free(rs);
		goto out;
	}
	*out = rs;
out:
	strbuf_release(&dir);
	strbuf_release(&path);
	return r;
}

void results_close(struct results *rs)
{
	if (!rs)
		return;
	db_close(rs->db);
	free(rs);
}

const char *results_path(const struct results *rs)
{
	return db_path(rs->db);
}

static char *dup_col(struct db_stmt *st, int i)
{
	const char *s = db_column_text(st, i);

	return s ? xstrdup(s) : NULL;
}

/* Prepares sql and binds ?1 = def_hash, ?2 = key. */
static int prepare_keyed(struct results *rs, struct db_stmt **st,
			 const char *sql, const char *def_hash, const char *key)
{
	int r = db_prepare(rs->db, st, sql);

	if (r < 0)
		return r;
	db_bind_text(*st, 1, def_hash);
	db_bind_text(*st, 2, key);
	return 0;
}

int results_get(struct results *rs, const char *def_hash, const char *key,
		struct result *out)
{
	struct db_stmt *st;
	int r;

	memset(out, 0, sizeof(*out));
	r = prepare_keyed(rs, &st, "SELECT check_name, status, summary, "
		       "details, duration, created FROM results "
		       "WHERE def_hash = ?1 AND key = ?2",
			  def_hash, key);
	if (r < 0)
		return r;
	r = db_step(st);
	if (r == 1) {
		const char *status = db_column_text(st, 1);

		if (result_status_parse(status, &out->status) < 0) {
			r = error("results database %s: the result of %s for "
				  "%s has the status '%s', which this respin "
				  "does not know", results_path(rs),
				  db_column_text(st, 0), key,
				  status ? status : "NULL");
			error_hint("it was written by a newer respin, or "
				   "the file is damaged");
			db_finalize(st);
			return r;
		}
		out->check = dup_col(st, 0);
		out->summary = dup_col(st, 2);
		out->details = dup_col(st, 3);
		out->duration = db_column_double(st, 4);
		out->created = db_column_int(st, 5);
		out->def_hash = xstrdup(def_hash);
		out->key = xstrdup(key);
		r = 0;
	} else if (r == 0) {
		r = RESPIN_ENOTFOUND;
	}
	db_finalize(st);
	return r;
}

int results_put(struct results *rs, const struct result *res,
		const char *log, size_t log_len)
{
	struct db_stmt *st;
	uLongf zlen = compressBound((uLong)log_len);
	unsigned char *z = xmalloc(zlen);
	int r;

	if (compress2(z, &zlen, (const Bytef *)log, (uLong)log_len, 6) != Z_OK) {
		free(z);
		return error("cannot compress the log of %s", res->check);
	}
	r = db_prepare(rs->db, &st, "INSERT OR REPLACE INTO results (check_name, "
		       "def_hash, key, status, summary, details, duration, "
		       "created, log, log_size) VALUES (?1, ?2, ?3, ?4, ?5, "
		       "?6, ?7, ?8, ?9, ?10)");
	if (r < 0) {
		free(z);
		return r;
	}
	db_bind_text(st, 1, res->check);
	db_bind_text(st, 2, res->def_hash);
	db_bind_text(st, 3, res->key);
	db_bind_text(st, 4, result_status_name(res->status));
	db_bind_text(st, 5, res->summary);
	db_bind_text(st, 6, res->details);
	db_bind_double(st, 7, res->duration);
	db_bind_int(st, 8, res->created);
	db_bind_blob(st, 9, z, zlen);
	db_bind_int(st, 10, (int64_t)log_len);
	r = db_step(st);
	db_finalize(st);
	free(z);
	return r < 0 ? r : 0;
}

int results_log(struct results *rs, const char *def_hash, const char *key,
		struct strbuf *out)
{
	struct db_stmt *st;
	const void *z;
	size_t zlen;
	uLongf len;
	int r;

	r = prepare_keyed(rs, &st, "SELECT log, log_size FROM results "
			  "WHERE def_hash = ?1 AND key = ?2",
			  def_hash, key);
	if (r < 0)
		return r;
	r = db_step(st);
	if (r == 1) {
		z = db_column_blob(st, 0, &zlen);
		len = (uLongf)db_column_int(st, 1);
		strbuf_grow(out, len);
		if (len && uncompress((Bytef *)out->buf + out->len, &len,
				      z, (uLong)zlen) != Z_OK) {
			r = error("the stored log in %s is damaged",
				  results_path(rs));
		} else {
			strbuf_setlen(out, out->len + len);
			r = 0;
		}
	} else if (r == 0) {
		r = RESPIN_ENOTFOUND;
	}
	db_finalize(st);
	return r;
}

int results_samples_get_seq(struct results *rs, const char *def_hash,
			    const char *key, double **vals, int64_t **seq,
			    size_t *n)
{
	struct db_stmt *st;
	size_t alloc = 0, salloc = 0;
	int r;

	*vals = NULL;
	if (seq)
		*seq = NULL;
	*n = 0;
	r = prepare_keyed(rs, &st, "SELECT value, rowid FROM samples WHERE "
			  "def_hash = ?1 AND key = ?2 ORDER BY rowid",
			  def_hash, key);
	if (r < 0)
		return r;
	while ((r = db_step(st)) == 1) {
		ALLOC_GROW(*vals, *n, alloc);
		(*vals)[*n] = db_column_double(st, 0);
		if (seq) {
			ALLOC_GROW(*seq, *n, salloc);
			(*seq)[*n] = db_column_int(st, 1);
		}
		(*n)++;
	}
	db_finalize(st);
	return r < 0 ? r : 0;
}

int results_samples_get(struct results *rs, const char *def_hash,
			const char *key, double **vals, size_t *n)
{
	return results_samples_get_seq(rs, def_hash, key, vals, NULL, n);
}

/* Stores n samples, vals[i] under keys[i], of def_hash: all or none. */
static int samples_insert(struct results *rs, const char *def_hash,
			  const char *const *keys, const double *vals,
			  size_t n)
{
	struct db_stmt *st;
	size_t i;
	int r;

	r = db_begin(rs->db);
	if (r < 0)
		return r;
	r = db_prepare(rs->db, &st, "INSERT INTO samples (def_hash, key, "
		       "value) VALUES (?1, ?2, ?3)");
	for (i = 0; !r && i < n; i++) {
		db_bind_text(st, 1, def_hash);
		db_bind_text(st, 2, keys[i]);
		db_bind_double(st, 3, vals[i]);
		r = db_step(st);
		db_reset(st);
	}
	db_finalize(st);
	if (r < 0) {
		db_rollback(rs->db);
		return r;
	}
	return db_commit(rs->db);
}

int results_samples_add(struct results *rs, const char *def_hash,
			const char *key, const double *vals, size_t n)
{
	const char **keys = xcalloc(n + 1, sizeof(*keys));
	size_t i;
	int r;

	for (i = 0; i < n; i++)
		keys[i] = key;
	r = samples_insert(rs, def_hash, keys, vals, n);
	free(keys);
	return r;
}

int results_run_add(struct results *rs, const char *def_hash,
		    const char *key, double value, const char *const *names,
		    const double *vals, size_t n)
{
	struct strbuf *k = xcalloc(n + 1, sizeof(*k));
	const char **keys = xcalloc(n + 1, sizeof(*keys));
	double *all = xcalloc(n + 1, sizeof(*all));
	size_t i;
	int r;

	/* the run's value under key, each named metric under key/NAME */
	for (i = 0; i <= n; i++) {
		strbuf_init(&k[i], 0);
		strbuf_addstr(&k[i], key);
		if (i)
			strbuf_addf(&k[i], "/%s", names[i - 1]);
		keys[i] = k[i].buf;
		all[i] = i ? vals[i - 1] : value;
	}
	r = samples_insert(rs, def_hash, keys, all, n + 1);
	for (i = 0; i <= n; i++)
		strbuf_release(&k[i]);
	free(k);
	free(keys);
	free(all);
	return r;
}

void results_metrics_free(struct results_metric *m, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(m[i].name);
		free(m[i].vals);
		free(m[i].seq);
	}
	free(m);
}

int results_metrics_get(struct results *rs, const char *def_hash,
			const char *key, struct results_metric **out,
			size_t *nr)
{
	struct strbuf lo = STRBUF_INIT, hi = STRBUF_INIT;
	struct results_metric *m = NULL;
	size_t alloc = 0, valloc = 0, salloc = 0, klen = strlen(key) + 1;
	struct db_stmt *st;
	int r;

	*out = NULL;
	*nr = 0;
	/* the keys "KEY/..." are those from "KEY/" up to "KEY0" ('/' + 1) */
	strbuf_addf(&lo, "%s/", key);
	strbuf_addf(&hi, "%s0", key);
	r = db_prepare(rs->db, &st, "SELECT key, value, rowid FROM samples "
		       "WHERE def_hash = ?1 AND key >= ?2 AND key < ?3 "
		       "ORDER BY key, rowid");
	if (r < 0)
		goto out;
	db_bind_text(st, 1, def_hash);
	db_bind_text(st, 2, lo.buf);
	db_bind_text(st, 3, hi.buf);
	while ((r = db_step(st)) == 1) {
		const char *k = db_column_text(st, 0);
		struct results_metric *cur;

		if (!k || strlen(k) <= klen)
			continue;
		if (!*nr || strcmp(m[*nr - 1].name, k + klen)) {
			ALLOC_GROW(m, *nr, alloc);
			memset(&m[*nr], 0, sizeof(*m));
			m[*nr].name = xstrdup(k + klen);
			(*nr)++;
			valloc = salloc = 0;
		}
		cur = &m[*nr - 1];
		ALLOC_GROW(cur->vals, cur->n, valloc);
		ALLOC_GROW(cur->seq, cur->n, salloc);
		cur->vals[cur->n] = db_column_double(st, 1);
		cur->seq[cur->n] = db_column_int(st, 2);
		cur->n++;
	}
	db_finalize(st);
	if (r < 0) {
		results_metrics_free(m, *nr);
		*nr = 0;
		goto out;
	}
	*out = m;
	r = 0;
out:
	strbuf_release(&lo);
	strbuf_release(&hi);
	return r;
}
