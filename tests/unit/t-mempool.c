// SPDX-License-Identifier: GPL-2.0-or-later
/* The memory pool: copies, alignment, big pieces, moving pools. */
#include "tools/lib/mempool.h"
#include "tools/lib/strbuf.h"
#include "tests/unit/tap.h"

#include <stdint.h>

int main(void)
{
	struct mem_pool a = MEM_POOL_INIT, b = MEM_POOL_INIT;
	char *s[2000], *odd, *big;
	void **arr;
	size_t i, bad = 0, misaligned = 0;

	is_str(mem_pool_strdup(&a, "hello"), "hello", "a copy");
	is_str(mem_pool_strndup(&a, "hello world", 5), "hello",
	       "the first bytes, terminated");
	is_str(mem_pool_strdup(&a, ""), "", "an empty string");

	/* more than one block's worth, each copy intact afterwards */
	for (i = 0; i < 2000; i++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "<%zu.message@example.org> %*s", i,
			    (int)(i % 97), "");
		s[i] = mem_pool_strdup(&a, sb.buf);
		strbuf_release(&sb);
		odd = mem_pool_strndup(&a, "x", 1);
		arr = mem_pool_alloc(&a, 3 * sizeof(*arr));
		if ((uintptr_t)arr % sizeof(void *))
			misaligned++;
		arr[0] = arr[1] = arr[2] = odd;
	}
	for (i = 0; i < 2000; i++) {
		char want[64];

		snprintf(want, sizeof(want), "<%zu.message@example.org> ", i);
		if (strncmp(s[i], want, strlen(want)) ||
		    strlen(s[i]) != strlen(want) + i % 97)
			bad++;
	}
	is_int((long long)bad, 0, "2000 strings over several blocks intact");
	is_int((long long)misaligned, 0, "arrays are aligned after odd strings");

	/* bigger than a block: a block of its own, the current one kept */
	big = mem_pool_alloc(&b, 200000);
	memset(big, 'b', 200000);
	odd = mem_pool_strdup(&b, "after");
	ok(big[199999] == 'b', "a piece bigger than a block");
	is_str(odd, "after", "small pieces still fit after it");

	mem_pool_move(&a, &b);
	ok(!b.block, "moving empties the source");
	is_str(odd, "after", "its pieces are still there");
	ok(!strncmp(s[0], "<0.message@example.org>", 23),
	   "and those of the pool moved into");
	mem_pool_move(&a, &b);
	ok(a.block != NULL, "moving an empty pool changes nothing");
	mem_pool_release(&a);
	ok(!a.block, "released");
	mem_pool_release(&a);
	return done_testing();
}
