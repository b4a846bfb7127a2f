// SPDX-License-Identifier: GPL-2.0-or-later
#include "strmap.h"

#include <glib.h>

int strmap_put(struct strmap *m, const char *key, size_t value)
{
	if (!m->table)
		m->table = g_hash_table_new(g_str_hash, g_str_equal);
	/* an existing key keeps its pointer; the value is replaced */
	return g_hash_table_insert(m->table, (gpointer)key,
				   GSIZE_TO_POINTER(value)) ? 1 : 0;
}

int strmap_get(const struct strmap *m, const char *key, size_t *value)
{
	gpointer v;

	if (!m->table ||
	    !g_hash_table_lookup_extended(m->table, key, NULL, &v))
		return 0;
	*value = GPOINTER_TO_SIZE(v);
	return 1;
}

void strmap_release(struct strmap *m)
{
	if (m->table)
		g_hash_table_destroy(m->table);
	m->table = NULL;
}
