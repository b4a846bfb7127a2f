// SPDX-License-Identifier: GPL-2.0-or-later
#include "strmap.h"
#include "strbuf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

static size_t find_slot(const struct strmap *m, const char *key)
{
	size_t mask = m->size - 1, i = (size_t)hash_str(key) & mask;

	while (m->keys[i] && strcmp(m->keys[i], key))
		i = (i + 1) & mask;
	return i;
}

static void grow(struct strmap *m)
{
	struct strmap n;
	size_t i;

	n.size = m->size ? m->size * 2 : 64;
	n.nr = 0;
	n.keys = xcalloc(n.size, sizeof(*n.keys));
	n.values = xcalloc(n.size, sizeof(*n.values));
	for (i = 0; i < m->size; i++)
		if (m->keys[i]) {
			size_t s = find_slot(&n, m->keys[i]);

			n.keys[s] = m->keys[i];
			n.values[s] = m->values[i];
			n.nr++;
		}
	free(m->keys);
	free(m->values);
	*m = n;
}

int strmap_put(struct strmap *m, const char *key, size_t value)
{
	size_t s;

	if ((m->nr + 1) * 2 > m->size)
		grow(m);
	s = find_slot(m, key);
	m->values[s] = value;
	if (m->keys[s])
		return 0;
	m->keys[s] = key;
	m->nr++;
	return 1;
}

int strmap_get(const struct strmap *m, const char *key, size_t *value)
{
	size_t s;

	if (!m->size)
		return 0;
	s = find_slot(m, key);
	if (!m->keys[s])
		return 0;
	*value = m->values[s];
	return 1;
}

void strmap_release(struct strmap *m)
{
	free(m->keys);
	free(m->values);
	memset(m, 0, sizeof(*m));
}
