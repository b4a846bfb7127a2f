/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_FS_H
#define RESPIN_FS_H

/*
 * Makes the directory path and any parents it lacks (as mkdir -p);
 * 0, or <0 with a message naming the directory that could not be made.
 */
int mkdir_parents(const char *path);

/* The same for the directories that lead to path (a file's folder). */
int mkdir_leading(const char *path);

#endif
