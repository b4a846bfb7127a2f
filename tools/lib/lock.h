/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_LOCK_H
#define RESPIN_LOCK_H

#include <sys/types.h>
#include "strbuf.h"

/*
 * An exclusive lock on a file (flock): the kernel drops it when the
 * last process holding it ends, so a killed respin leaves no stale
 * lock.  The descriptor is inherited by the programs respin starts, so
 * the lock stays taken while anything respin started still runs, even
 * after respin itself was killed.  While held, the file says who holds
 * it ("pid N", "what ...", "since T", and what lock_note() adds).
 */
struct lock_file {
	int fd;			/* -1: not held */
	char *path;
};

#define LOCK_FILE_INIT { -1, NULL }

/* What the file of a lock held by another process says. */
struct lock_holder {
	pid_t pid;		/* 0: not said */
	int alive;		/* pid still runs */
	pid_t group;		/* the process group of its running command */
	char *what;		/* "respin check k@v2", or NULL */
	long long since;	/* time(2), or 0 */
	char *running;		/* what its command was doing, or NULL */
};

void lock_holder_release(struct lock_holder *h);

/*
 * Takes the lock at path (made if missing, with its directory's parent
 * existing).  Returns 0 when taken, 1 when another process holds it
 * (h filled, if not NULL), <0 with a message on errors.  With wait, it
 * waits for the lock instead, until stop() says to give up (polled
 * every 100 ms; stop may be NULL), then returns 1.
 */
int lock_take(struct lock_file *lk, const char *path, const char *what,
	      int wait, int (*stop)(void), struct lock_holder *h);
/* Replaces the lines after the first three (who holds it) with text. */
void lock_note(struct lock_file *lk, const char *text);
void lock_release(struct lock_file *lk);

/*
 * For libgit2's GIT_ELOCKED: records a message naming the lock file
 * (the one libgit2's message names, else lock, which may be NULL), saying
 * what is locked and what to do about it, and returns RESPIN_ERR.
 * what: "cannot update refs/respin/series/k".
 */
int lock_error_git(const char *what, const char *lock);

#endif
