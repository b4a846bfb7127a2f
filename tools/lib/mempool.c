// SPDX-License-Identifier: GPL-2.0-or-later
#include "mempool.h"
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

/* A little under 64 KiB, so that malloc's own header fits beside it. */
#define BLOCK_ALLOC (64 * 1024 - 64)

struct mem_pool_block {
	struct mem_pool_block *prev;
	size_t used, size;
	char data[];
};

#define ALIGN (sizeof(void *) > sizeof(long long) ? sizeof(void *) : \
	       sizeof(long long))

static struct mem_pool_block *block_new(size_t size)
{
	struct mem_pool_block *b = xmalloc(sizeof(*b) + size);

	b->prev = NULL;
	b->used = 0;
	b->size = size;
	return b;
}

/* len bytes at a multiple of align (a power of two) in the pool. */
static void *take(struct mem_pool *pool, size_t len, size_t align)
{
	struct mem_pool_block *b = pool->block;
	size_t at;

	if (b) {
		at = (b->used + align - 1) & ~(align - 1);
		if (at <= b->size && len <= b->size - at) {
			b->used = at + len;
			return b->data + at;
		}
	}
	if (len > (BLOCK_ALLOC - sizeof(*b)) / 4) {
		/* a big one: a block of its own, behind the one being filled */
		b = block_new(len);
		b->used = len;
		if (pool->block) {
			b->prev = pool->block->prev;
			pool->block->prev = b;
		} else {
			pool->block = b;
		}
		return b->data;
	}
	b = block_new(BLOCK_ALLOC - sizeof(*b));
	b->prev = pool->block;
	pool->block = b;
	b->used = len;
	return b->data;
}

void *mem_pool_alloc(struct mem_pool *pool, size_t len)
{
	return take(pool, len ? len : 1, ALIGN);
}

char *mem_pool_strndup(struct mem_pool *pool, const char *s, size_t len)
{
	char *r = take(pool, len + 1, 1);

	memcpy(r, s, len);
	r[len] = '\0';
	return r;
}

char *mem_pool_strdup(struct mem_pool *pool, const char *s)
{
	return mem_pool_strndup(pool, s, strlen(s));
}

void mem_pool_move(struct mem_pool *into, struct mem_pool *from)
{
	struct mem_pool_block *last = from->block;

	if (!last)
		return;
	while (last->prev)
		last = last->prev;
	last->prev = into->block;
	into->block = from->block;
	from->block = NULL;
}

void mem_pool_release(struct mem_pool *pool)
{
	struct mem_pool_block *b = pool->block;

	while (b) {
		struct mem_pool_block *prev = b->prev;

		free(b);
		b = prev;
	}
	pool->block = NULL;
}
