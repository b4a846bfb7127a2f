/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_STRMAP_H
#define RESPIN_STRMAP_H

#include <stddef.h>

/*
 * A hash map from strings to size_t values (open addressing, FNV-1a).
 * Keys are borrowed: they must outlive the map.
 */
struct strmap {
	const char **keys;
	size_t *values;
	size_t size, nr;	/* size is a power of two (or 0) */
};

#define STRMAP_INIT { NULL, NULL, 0, 0 }

/* Sets key to value (replacing); returns 1 if the key was new. */
int strmap_put(struct strmap *m, const char *key, size_t value);
/* Returns 1 and sets *value when key is there, else 0. */
int strmap_get(const struct strmap *m, const char *key, size_t *value);
void strmap_release(struct strmap *m);

#endif
