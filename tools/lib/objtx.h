/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_OBJTX_H
#define RESPIN_OBJTX_H

#include <git2.h>

#include "strbuf.h"

/*
 * Objects written so that a concurrent git gc --prune=now cannot take
 * them: git prunes every unreachable loose object at once (and the
 * empty fan-out directories a loose write is about to use), so an
 * object written before the ref that will point at it is at risk.
 *
 * From objtx_begin() on, every object the repository writes goes into
 * memory (libgit2's mempack, in front of the object store, which still
 * serves reads).  objtx_checkpoint(), called by the code that is about
 * to point a ref at them (series_save), writes them as one pack whose
 * .keep file is in place before the pack is (git gc and git repack
 * leave a kept pack alone).  objtx_end(), after the refs moved, puts
 * the object store back and removes the .keep files: the objects are
 * reachable by then.  What was written after the last checkpoint is
 * dropped.  Only for commands whose new objects no other program reads
 * before they are saved (track, import): git itself cannot see them.
 */
struct objtx {
	git_repository *repo;
	git_odb *disk;		/* the repository's own object store */
	git_odb *mem_odb;	/* mempack in front of it, while writing */
	git_odb_backend *mem;
	struct objtx_rec *rec;	/* in front of mem: what was written */
	char **keeps;		/* the .keep files of the packs written */
	size_t nr_keeps, alloc_keeps;
};

int objtx_begin(struct objtx *tx, git_repository *repo);
/* For the transaction of repo, if one is under way: 0 or <0. */
int objtx_checkpoint(git_repository *repo);
void objtx_end(struct objtx *tx);
/*
 * Moves DIR/pack-NAME.pack and its .idx (a pack another program wrote,
 * such as git pack-objects) into repo's object store: kept like the
 * transaction's own packs when one is under way for repo, so that its
 * objects are out of git gc's reach until the refs point at them.
 */
int objtx_add_pack(git_repository *repo, const char *dir, const char *name);

/*
 * Objects another program writes (git apply, git write-tree) go to a
 * quarantine: a new folder .git/respin/WHAT-XXXXXX (into dir) with an
 * objects/ of its own, which git gc does not know.  _env() sets what
 * points git there ("GIT_INDEX_FILE=DIR/index", "GIT_OBJECT_DIRECTORY=
 * DIR/objects", "GIT_ALTERNATE_OBJECT_DIRECTORIES=" the repository's).
 * _pack() has git pack-objects make one pack of what is loose there
 * and moves it in (objtx_add_pack()); the caller removes the folder.
 */
int objtx_quarantine_new(git_repository *repo, const char *what,
			 struct strbuf *dir);
int objtx_quarantine_env(git_repository *repo, const char *dir,
			 struct strbuf env[3]);
int objtx_quarantine_pack(git_repository *repo, const char *dir);

/*
 * A blob, as git_blob_create_from_buffer() writes it; but from
 * OBJTX_BIG_BLOB bytes on, while a transaction is under way, streamed
 * into a quarantine and packed from there instead of being held whole
 * by the mempack (and again by the pack written from it).
 */
#define OBJTX_BIG_BLOB	((size_t)1 << 20)
#define OBJTX_SLICE	((size_t)1 << 20)
int objtx_write_blob(git_repository *repo, const char *buf, size_t len,
		     git_oid *out);

#endif
