/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_OBJTX_H
#define RESPIN_OBJTX_H

#include <git2.h>

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

#endif
