// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/treetext.h"
#include "tools/lib/strbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * The name akpm's scripts give a patch file: lower case, every run of
 * characters other than letters, digits and '_' one '-', none at
 * either end ("mm/lru_gen: batch ..." -> "mm-lru_gen-batch-...").
 */
char *tree_slug(const char *title)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	int dash = 0;

	for (p = title; *p; p++) {
		if (isalnum((unsigned char)*p) || *p == '_') {
			if (dash && sb.len)
				strbuf_addch(&sb, '-');
			strbuf_addch(&sb, (char)tolower((unsigned char)*p));
			dash = 0;
		} else {
			dash = 1;
		}
	}
	return strbuf_detach(&sb, NULL);
}

/* %XX in a URL part decoded. */
static void url_decode(struct strbuf *sb)
{
	size_t i, o = 0;

	for (i = 0; i < sb->len; i++) {
		if (sb->buf[i] == '%' && i + 2 < sb->len &&
		    isxdigit((unsigned char)sb->buf[i + 1]) &&
		    isxdigit((unsigned char)sb->buf[i + 2])) {
			char h[3] = { sb->buf[i + 1], sb->buf[i + 2], 0 };

			sb->buf[o++] = (char)strtol(h, NULL, 16);
			i += 2;
		} else {
			sb->buf[o++] = sb->buf[i];
		}
	}
	strbuf_setlen(sb, o);
}

/* The Message-IDs a commit message names (Link:, Message-Id:). */
/* A byte no Message-ID has (a %0a or %00 of a Link: decoded). */
static int has_control(const struct strbuf *sb)
{
	size_t i;

	for (i = 0; i < sb->len; i++)
		if ((unsigned char)sb->buf[i] < 0x20 ||
		    (unsigned char)sb->buf[i] == 0x7f)
			return 1;
	return 0;
}

void tree_message_ids(const char *msg,
		      void (*fn)(const char *id, void *d), void *d)
{
	const char *p = msg;
	struct strbuf id = STRBUF_INIT;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		strbuf_reset(&id);
		if (n > 5 && !strncasecmp(p, "Link:", 5)) {
			const char *u = p + 5, *e = p + n, *slash;

			while (u < e && isspace((unsigned char)*u))
				u++;
			while (e > u && (isspace((unsigned char)e[-1]) ||
					 e[-1] == '/'))
				e--;
			for (slash = e; slash > u && slash[-1] != '/'; slash--)
				;
			if (slash > u && memchr(slash, '@', (size_t)(e - slash)))
				strbuf_add(&id, slash, (size_t)(e - slash));
			url_decode(&id);
		} else if (n > 11 && !strncasecmp(p, "Message-Id:", 11)) {
			const char *lt = memchr(p, '<', n), *gt;

			if (lt && (gt = memchr(lt, '>', n - (size_t)(lt - p))))
				strbuf_add(&id, lt + 1, (size_t)(gt - lt - 1));
		}
		if (id.len && !has_control(&id))
			fn(id.buf, d);
		p = nl ? nl + 1 : NULL;
	}
	strbuf_release(&id);
}

/* "T-fix", "T-fix-2", "T-fix-fix" -> "T"; NULL when it is none. */
char *tree_fixup_target(const char *subject)
{
	char *t = xstrdup(subject);
	size_t n = strlen(t);
	int stripped = 0;

	/* a quilt patch file's name, "T-fix.patch" */
	if (n > 6 && !strcmp(t + n - 6, ".patch"))
		t[n -= 6] = '\0';

	for (;;) {
		size_t k = n;

		while (k && isdigit((unsigned char)t[k - 1]))
			k--;
		if (k < n && k > 5 && t[k - 1] == '-' &&
		    !strncmp(t + k - 5, "-fix-", 5)) {
			n = k - 5;
		} else if (n > 4 && !strncmp(t + n - 4, "-fix", 4)) {
			n -= 4;
		} else {
			break;
		}
		t[n] = '\0';
		stripped = 1;
	}
	if (!stripped || !n) {
		free(t);
		return NULL;
	}
	return t;
}

