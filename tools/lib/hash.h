/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_HASH_H
#define RESPIN_HASH_H

#include <stddef.h>
#include <stdint.h>

/*
 * FNV-1a in 32 bits: a quick string hash for in-memory tables and
 * multisets (never stored, never a key an attacker's collisions could
 * slow down much).  Start from FNV1A32_INIT; feed pieces one after the
 * other to hash their concatenation.
 */
#define FNV1A32_INIT 2166136261u

static inline uint32_t fnv1a32(uint32_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--)
		h = (h ^ *p++) * 16777619u;
	return h;
}

#endif
