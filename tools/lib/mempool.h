/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_MEMPOOL_H
#define RESPIN_MEMPOOL_H

#include <stddef.h>

/*
 * Memory for many small strings and arrays that are all freed at once
 * (the headers of a year of mail): carved out of large blocks, without
 * malloc's header and rounding for each of them.  Nothing is freed
 * alone; mem_pool_release() frees everything.  A pool is not
 * thread-safe: give each thread its own and mem_pool_move() them
 * together afterwards.
 */
struct mem_pool_block;

struct mem_pool {
	struct mem_pool_block *block;	/* the one being filled, or NULL */
};

#define MEM_POOL_INIT { NULL }

/* len bytes aligned for pointers and integers; never NULL. */
void *mem_pool_alloc(struct mem_pool *pool, size_t len);
/* A NUL-terminated copy of the first len bytes of s. */
char *mem_pool_strndup(struct mem_pool *pool, const char *s, size_t len);
char *mem_pool_strdup(struct mem_pool *pool, const char *s);
/* Hands everything from holds over to into; from is left empty. */
void mem_pool_move(struct mem_pool *into, struct mem_pool *from);
void mem_pool_release(struct mem_pool *pool);

#endif
