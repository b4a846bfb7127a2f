// SPDX-License-Identifier: GPL-2.0-or-later
#include "objtx.h"
#include "error.h"
#include "fs.h"
#include "strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <git2/sys/mempack.h>
#include <git2/sys/repository.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The one under way, for objtx_checkpoint(). */
static struct objtx *active;

int objtx_begin(struct objtx *tx, git_repository *repo)
{
	struct strbuf dir = STRBUF_INIT;
	int r = 0;

	memset(tx, 0, sizeof(*tx));
	tx->repo = repo;
	strbuf_addf(&dir, "%sobjects", git_repository_commondir(repo));
	if (git_repository_odb(&tx->disk, repo) < 0 ||
	    git_odb_new(&tx->mem_odb) < 0 ||
	    git_mempack_new(&tx->mem) < 0 ||
	    git_odb_add_backend(tx->mem_odb, tx->mem, 1000) < 0) {
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

int objtx_checkpoint(git_repository *repo)
{
	struct objtx *tx = active;
	git_buf pack = GIT_BUF_INIT;
	int r = 0;

	if (!tx || tx->repo != repo)
		return 0;
	if (git_mempack_dump(&pack, tx->repo, tx->mem) < 0)
		r = error_git("cannot gather the new objects");
	else if (pack_count(&pack))
		r = write_pack(tx, &pack);
	git_buf_dispose(&pack);
	if (!r) {
		/* they are in the pack now, which reads see */
		git_mempack_reset(tx->mem);
		git_odb_refresh(tx->mem_odb);
	}
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
