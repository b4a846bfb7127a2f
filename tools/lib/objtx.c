// SPDX-License-Identifier: GPL-2.0-or-later
#include "objtx.h"
#include "error.h"
#include "fs.h"
#include "run.h"
#include "strbuf.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include <git2/sys/repository.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The one under way, for objtx_checkpoint(). */
static struct objtx *active;

/*
 * The mempack behind a backend that notes what is written to it:
 * git_mempack_dump() packs each new commit with its whole tree (every
 * blob of a kernel tree, a giant blob read back and packed again), and
 * the mempack cannot list its objects; the pack need hold only these.
 */
struct objtx_rec {
	git_odb_backend parent;
	git_odb_backend *mem;
	git_oid *oids;
	size_t nr, alloc;
};

static int rec_read(void **buf, size_t *len, git_object_t *type,
		    git_odb_backend *b, const git_oid *oid)
{
	git_odb_backend *m = ((struct objtx_rec *)b)->mem;

	return m->read(buf, len, type, m, oid);
}

static int rec_read_prefix(git_oid *out, void **buf, size_t *len,
			   git_object_t *type, git_odb_backend *b,
			   const git_oid *short_oid, size_t n)
{
	git_odb_backend *m = ((struct objtx_rec *)b)->mem;

	if (!m->read_prefix)
		return GIT_ENOTFOUND;
	return m->read_prefix(out, buf, len, type, m, short_oid, n);
}

static int rec_read_header(size_t *len, git_object_t *type,
			   git_odb_backend *b, const git_oid *oid)
{
	git_odb_backend *m = ((struct objtx_rec *)b)->mem;

	return m->read_header(len, type, m, oid);
}

static int rec_exists(git_odb_backend *b, const git_oid *oid)
{
	git_odb_backend *m = ((struct objtx_rec *)b)->mem;

	return m->exists(m, oid);
}

static int rec_exists_prefix(git_oid *out, git_odb_backend *b,
			     const git_oid *short_oid, size_t n)
{
	git_odb_backend *m = ((struct objtx_rec *)b)->mem;

	if (!m->exists_prefix)
		return GIT_ENOTFOUND;
	return m->exists_prefix(out, m, short_oid, n);
}

static int rec_write(git_odb_backend *b, const git_oid *oid,
		     const void *data, size_t len, git_object_t type)
{
	struct objtx_rec *rec = (struct objtx_rec *)b;
	int r = rec->mem->write(rec->mem, oid, data, len, type);

	if (!r) {
		ALLOC_GROW(rec->oids, rec->nr, rec->alloc);
		git_oid_cpy(&rec->oids[rec->nr++], oid);
	}
	return r;
}

static void rec_free(git_odb_backend *b)
{
	struct objtx_rec *rec = (struct objtx_rec *)b;

	rec->mem->free(rec->mem);
	free(rec->oids);
	free(rec);
}

static struct objtx_rec *rec_new(git_odb_backend *mem)
{
	struct objtx_rec *rec = xcalloc(1, sizeof(*rec));

	git_odb_init_backend(&rec->parent, GIT_ODB_BACKEND_VERSION);
	rec->mem = mem;
	rec->parent.read = rec_read;
	rec->parent.read_prefix = rec_read_prefix;
	rec->parent.read_header = rec_read_header;
	rec->parent.exists = rec_exists;
	rec->parent.exists_prefix = rec_exists_prefix;
	rec->parent.write = rec_write;
	rec->parent.free = rec_free;
	return rec;
}

int objtx_begin(struct objtx *tx, git_repository *repo)
{
	struct strbuf dir = STRBUF_INIT;
	int r = 0;

	memset(tx, 0, sizeof(*tx));
	tx->repo = repo;
	strbuf_addf(&dir, "%sobjects", git_repository_commondir(repo));
	if (git_repository_odb(&tx->disk, repo) < 0 ||
	    git_odb_new(&tx->mem_odb) < 0 ||
	    git_mempack_new(&tx->mem) < 0) {
		r = error_git("cannot set up writing objects in %s", dir.buf);
		goto out;
	}
	tx->rec = rec_new(tx->mem);
	if (git_odb_add_backend(tx->mem_odb, &tx->rec->parent, 1000) < 0) {
		rec_free(&tx->rec->parent);
		r = error_git("cannot set up writing objects in %s", dir.buf);
		goto out;
	}
	/* reads of what is on disk: as alternates, which take no writes */
	if (git_odb_add_disk_alternate(tx->mem_odb, dir.buf) < 0) {
		r = error_git("cannot read the objects in %s", dir.buf);
		goto out;
	}
	git_repository_set_odb(repo, tx->mem_odb);
	active = tx;
out:
	if (r < 0) {
		git_odb_free(tx->mem_odb);
		git_odb_free(tx->disk);
		memset(tx, 0, sizeof(*tx));
	}
	strbuf_release(&dir);
	return r;
}

/* The number of objects in a pack's header. */
static unsigned pack_count(const git_buf *pack)
{
	const unsigned char *p = (const unsigned char *)pack->ptr;

	if (pack->size < 12)
		return 0;
	return (unsigned)p[8] << 24 | (unsigned)p[9] << 16 |
	       (unsigned)p[10] << 8 | p[11];
}

/* tmp/pack-NAME.EXT into objects/pack/. */
static int move_in(const char *tmp, const char *packdir, const char *name,
		   const char *ext)
{
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
	int r = 0;

	strbuf_addf(&from, "%s/pack-%s.%s", tmp, name, ext);
	strbuf_addf(&to, "%s/pack-%s.%s", packdir, name, ext);
	if (rename(from.buf, to.buf) < 0)
		r = error_errno("cannot move %s to %s", from.buf, to.buf);
	strbuf_release(&from);
	strbuf_release(&to);
	return r;
}

/*
 * dir/pack-NAME.pack and .idx into the object store; when tx is not
 * NULL, with a .keep file in place first, which objtx_end() removes.
 */
static int move_pack_in(struct objtx *tx, const char *common,
			const char *dir, const char *name)
{
	struct strbuf packdir = STRBUF_INIT, keep = STRBUF_INIT;
	int r = 0, fd;

	strbuf_addf(&packdir, "%sobjects/pack", common);
	if (mkdir_parents(packdir.buf) < 0) {
		r = RESPIN_ERR;
		goto out;
	}
	if (tx) {
		/* kept before it is there: git gc never sees it unkept */
		strbuf_addf(&keep, "%s/pack-%s.keep", packdir.buf, name);
		fd = open(keep.buf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, "respin\n", 7) != 7 || close(fd) < 0) {
			r = error_errno("cannot write %s", keep.buf);
			goto out;
		}
		ALLOC_GROW(tx->keeps, tx->nr_keeps, tx->alloc_keeps);
		tx->keeps[tx->nr_keeps++] = strbuf_detach(&keep, NULL);
	}
	/* the .idx last: a pack is there once its index is */
	r = move_in(dir, packdir.buf, name, "pack");
	if (!r)
		r = move_in(dir, packdir.buf, name, "idx");
out:
	strbuf_release(&packdir);
	strbuf_release(&keep);
	return r;
}

/* Writes the pack in a folder of respin's, then moves it in, kept. */
static int write_pack(struct objtx *tx, const git_buf *pack)
{
	const char *common = git_repository_commondir(tx->repo);
	struct strbuf tmp = STRBUF_INIT;
	git_indexer_options io = GIT_INDEXER_OPTIONS_INIT;
	git_indexer_progress stats;
	git_indexer *idx = NULL;
	int r = 0;

	strbuf_addf(&tmp, "%srespin/pack-XXXXXX", common);
	if (mkdir_leading(tmp.buf) < 0 || !mkdtemp(tmp.buf)) {
		r = error_errno("cannot make a folder for a pack in %srespin",
				common);
		goto out;
	}
	if (git_indexer_new(&idx, tmp.buf, 0444, NULL, &io) < 0 ||
	    git_indexer_append(idx, pack->ptr, pack->size, &stats) < 0 ||
	    git_indexer_commit(idx, &stats) < 0) {
		r = error_git("cannot write a pack of new objects");
		goto out;
	}
	r = move_pack_in(tx, common, tmp.buf, git_indexer_name(idx));
out:
	git_indexer_free(idx);
	if (tmp.len)
		remove_tree(tmp.buf);
	strbuf_release(&tmp);
	return r;
}

int objtx_add_pack(git_repository *repo, const char *dir, const char *name)
{
	struct objtx *tx = active && active->repo == repo ? active : NULL;
	git_odb *odb = NULL;
	int r = move_pack_in(tx, git_repository_commondir(repo), dir, name);

	/* reads see it: the transaction's store, else the repository's */
	if (!r && tx)
		git_odb_refresh(tx->mem_odb);
	else if (!r && !git_repository_odb(&odb, repo)) {
		git_odb_refresh(odb);
		git_odb_free(odb);
	}
	return r;
}

/* The names of the loose objects under dir, a line each. */
static int list_loose(const char *dir, struct strbuf *names)
{
	struct strbuf sub = STRBUF_INIT;
	DIR *d = opendir(dir), *d2;
	struct dirent *e, *e2;

	if (!d)
		return error_errno("cannot read %s", dir);
	while ((e = readdir(d))) {
		if (strlen(e->d_name) != 2 ||
		    !isxdigit((unsigned char)e->d_name[0]) ||
		    !isxdigit((unsigned char)e->d_name[1]))
			continue;
		strbuf_reset(&sub);
		strbuf_addf(&sub, "%s/%s", dir, e->d_name);
		d2 = opendir(sub.buf);
		if (!d2)
			continue;
		while ((e2 = readdir(d2)))
			if (e2->d_name[0] != '.' && !strchr(e2->d_name, '.'))
				strbuf_addf(names, "%s%s\n", e->d_name,
					    e2->d_name);
		closedir(d2);
	}
	closedir(d);
	strbuf_release(&sub);
	return 0;
}

int objtx_quarantine_env(git_repository *repo, const char *dir,
			 struct strbuf env[3])
{
	strbuf_addf(&env[0], "GIT_INDEX_FILE=%s/index", dir);
	strbuf_addf(&env[1], "GIT_OBJECT_DIRECTORY=%s/objects", dir);
	strbuf_addf(&env[2], "GIT_ALTERNATE_OBJECT_DIRECTORIES=%sobjects",
		    git_repository_commondir(repo));
	return 0;
}

int objtx_quarantine_new(git_repository *repo, const char *what,
			 struct strbuf *dir)
{
	const char *common = git_repository_commondir(repo);
	size_t at;

	strbuf_addf(dir, "%srespin/%s-XXXXXX", common, what);
	if (mkdir_leading(dir->buf) < 0 || !mkdtemp(dir->buf)) {
		strbuf_reset(dir);
		return error_errno("cannot make a folder for new objects in "
				   "%srespin", common);
	}
	at = dir->len;
	strbuf_addstr(dir, "/objects");
	if (mkdir(dir->buf, 0777) < 0) {
		int r = error_errno("cannot make %s", dir->buf);

		strbuf_setlen(dir, at);
		remove_tree(dir->buf);
		strbuf_reset(dir);
		return r;
	}
	strbuf_setlen(dir, at);
	return 0;
}

/* The object name on the last line of text that is one, into oid. */
static int last_oid(const char *text, git_oid *oid)
{
	const char *p = text, *line = NULL;

	while (*p) {
		size_t n = strcspn(p, "\n"), i;

		for (i = 0; i < n && isxdigit((unsigned char)p[i]); i++)
			;
		if (n == GIT_OID_HEXSZ && i == n)
			line = p;
		p += n;
		if (*p)
			p++;
	}
	return line ? git_oid_fromstrn(oid, line, GIT_OID_HEXSZ) : -1;
}

int objtx_quarantine_pack(git_repository *repo, const char *dir)
{
	struct strbuf env[3] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	struct strbuf objs = STRBUF_INIT, names = STRBUF_INIT;
	struct strbuf gitdir = STRBUF_INIT, base = STRBUF_INIT;
	struct run_opts o = { 0 };
	struct run_result res;
	char name[GIT_OID_HEXSZ + 1];
	git_oid pack;
	int r;

	run_result_init(&res);
	strbuf_addf(&objs, "%s/objects", dir);
	r = list_loose(objs.buf, &names);
	if (r < 0 || !names.len)
		goto out;	/* nothing new */
	objtx_quarantine_env(repo, dir, env);
	strbuf_addf(&gitdir, "--git-dir=%s", git_repository_path(repo));
	strbuf_addf(&base, "%s/pack", dir);
	{
		const char *argv[] = { "git", gitdir.buf, "pack-objects", "-q",
				       base.buf, NULL };
		const char *envp[] = { env[1].buf, env[2].buf, NULL };

		o.argv = argv;
		o.env = envp;
		o.input = names.buf;
		o.input_len = names.len;
		o.max_output = 1 << 20;
		r = run_program(&o, &res);
	}
	if (r < 0)
		goto out;
	strbuf_rtrim(&res.output);
	if (!res.exited || res.exit_code || last_oid(res.output.buf, &pack)) {
		r = error("git pack-objects of the new objects in %s failed: "
			  "%s", dir, res.output.buf);
		goto out;
	}
	git_oid_tostr(name, sizeof(name), &pack);
	r = objtx_add_pack(repo, dir, name);
out:
	run_result_release(&res);
	strbuf_release(&env[0]);
	strbuf_release(&env[1]);
	strbuf_release(&env[2]);
	strbuf_release(&objs);
	strbuf_release(&names);
	strbuf_release(&gitdir);
	strbuf_release(&base);
	return r;
}

/* A big blob written loose into dir's objects, a slice at a time. */
static int write_loose(const char *dir, const char *buf, size_t len,
		       git_oid *out)
{
	struct strbuf objs = STRBUF_INIT;
	git_odb_backend *loose = NULL;
	git_odb_stream *st = NULL;
	git_odb *odb = NULL;
	size_t at;
	int r = 0;

	strbuf_addf(&objs, "%s/objects", dir);
	if (git_odb_new(&odb) < 0 ||
	    git_odb_backend_loose(&loose, objs.buf, -1, 0, 0, 0) < 0 ||
	    git_odb_add_backend(odb, loose, 1) < 0 ||
	    git_odb_open_wstream(&st, odb, len, GIT_OBJECT_BLOB) < 0) {
		r = error_git("cannot write a blob in %s", objs.buf);
		goto out;
	}
	for (at = 0; at < len && !r; at += OBJTX_SLICE)
		if (git_odb_stream_write(st, buf + at, len - at < OBJTX_SLICE ?
					 len - at : OBJTX_SLICE) < 0)
			r = error_git("cannot write a blob in %s", objs.buf);
	if (!r && git_odb_stream_finalize_write(out, st) < 0)
		r = error_git("cannot write a blob in %s", objs.buf);
out:
	git_odb_stream_free(st);
	git_odb_free(odb);
	strbuf_release(&objs);
	return r;
}

int objtx_write_blob(git_repository *repo, const char *buf, size_t len,
		     git_oid *out)
{
	struct strbuf dir = STRBUF_INIT;
	git_odb *odb = NULL;
	int r, have;

	if (!active || active->repo != repo || len < OBJTX_BIG_BLOB)
		return git_blob_create_from_buffer(out, repo, buf, len) < 0 ?
		       error_git("cannot write a blob") : 0;
	if (git_odb_hash(out, buf, len, GIT_OBJECT_BLOB) < 0 ||
	    git_repository_odb(&odb, repo) < 0)
		return error_git("cannot write a blob");
	have = git_odb_exists(odb, out);
	git_odb_free(odb);
	if (have)
		return 0;
	/* not in the mempack: it would hold it, and its pack, whole */
	r = objtx_quarantine_new(repo, "blob", &dir);
	if (!r)
		r = write_loose(dir.buf, buf, len, out);
	if (!r)
		r = objtx_quarantine_pack(repo, dir.buf);
	if (dir.len)
		remove_tree(dir.buf);
	strbuf_release(&dir);
	return r;
}

int objtx_checkpoint(git_repository *repo)
{
	struct objtx *tx = active;
	git_buf pack = GIT_BUF_INIT;
	git_packbuilder *pb = NULL;
	size_t i;
	int r = 0;

	if (!tx || tx->repo != repo)
		return 0;
	if (!tx->rec->nr)
		return 0;
	if (git_packbuilder_new(&pb, tx->repo) < 0) {
		r = error_git("cannot gather the new objects");
		goto out;
	}
	git_packbuilder_set_threads(pb, 1);
	for (i = 0; i < tx->rec->nr && !r; i++)
		if (git_packbuilder_insert(pb, &tx->rec->oids[i], NULL) < 0)
			r = error_git("cannot gather the new objects");
	if (!r && git_packbuilder_write_buf(&pack, pb) < 0)
		r = error_git("cannot gather the new objects");
	if (!r && pack_count(&pack))
		r = write_pack(tx, &pack);
	if (!r) {
		/* they are in the pack now, which reads see */
		git_mempack_reset(tx->mem);
		tx->rec->nr = 0;
		git_odb_refresh(tx->mem_odb);
	}
out:
	git_packbuilder_free(pb);
	git_buf_dispose(&pack);
	return r;
}

void objtx_end(struct objtx *tx)
{
	size_t i;

	if (!tx->repo)
		return;
	if (active == tx)
		active = NULL;
	/* the repository's own store again, which sees the packs */
	git_repository_set_odb(tx->repo, tx->disk);
	git_odb_refresh(tx->disk);
	git_odb_free(tx->mem_odb);
	for (i = 0; i < tx->nr_keeps; i++) {
		unlink(tx->keeps[i]);
		free(tx->keeps[i]);
	}
	free(tx->keeps);
	git_odb_free(tx->disk);
	memset(tx, 0, sizeof(*tx));
}
