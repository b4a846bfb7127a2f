/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_STRMAP_H
#define RESPIN_STRMAP_H

#include <stddef.h>

/*
 * A hash map from strings to size_t values: GLib's GHashTable (linked
 * already through GMime) behind the small interface respin uses.  Keys
 * are borrowed: they must outlive the map.  All zero is an empty map.
 */
struct strmap {
	struct _GHashTable *table;	/* made on the first put */
};

#define STRMAP_INIT { NULL }

/* Sets key to value (replacing); returns 1 if the key was new. */
int strmap_put(struct strmap *m, const char *key, size_t value);
/* Returns 1 and sets *value when key is there, else 0. */
int strmap_get(const struct strmap *m, const char *key, size_t *value);
void strmap_release(struct strmap *m);

#endif
