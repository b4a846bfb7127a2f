// SPDX-License-Identifier: GPL-2.0-or-later
/* A quilt or akpm diff in git's form (series/quilt.h). */
#include "series/quilt.h"

#include <stdlib.h>
#include <string.h>

/* A path of a "---"/"+++" line: up to a tab, the first part (-p1) gone. */
static char *diff_path(const char *p, size_t len)
{
	const char *tab = memchr(p, '\t', len), *slash;

	if (tab)
		len = (size_t)(tab - p);
	while (len && (p[len - 1] == ' ' || p[len - 1] == '\r'))
		len--;
	if (len == 9 && !strncmp(p, "/dev/null", 9))
		return NULL;
	slash = memchr(p, '/', len);
	if (slash) {
		len -= (size_t)(slash + 1 - p);
		p = slash + 1;
	}
	return xstrndup(p, len);
}

/* The counts of a hunk header "@@ -a[,b] +c[,d] @@". */
static int hunk_counts(const char *p, long *old, long *new)
{
	char *e;

	*old = *new = 1;
	p += 4;
	strtol(p, &e, 10);
	if (*e == ',')
		*old = strtol(e + 1, &e, 10);
	if (strncmp(e, " +", 2))
		return -1;
	strtol(e + 2, &e, 10);
	if (*e == ',')
		*new = strtol(e + 1, &e, 10);
	return 0;
}

void quilt_git_form(const char *in, struct strbuf *out)
{
	const char *p = in, *nl, *nl2;
	long old = 0, new = 0;

	if (!strncmp(in, "diff --git ", 11) || strstr(in, "\ndiff --git ")) {
		strbuf_addstr(out, in);
		return;
	}
	for (; *p; p = nl ? nl + 1 : p + strlen(p)) {
		size_t len;

		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) + 1 : strlen(p);
		if (old > 0 || new > 0) {
			if (*p == ' ' || *p == '\n')
				old--, new--;
			else if (*p == '-')
				old--;
			else if (*p == '+')
				new--;
			strbuf_add(out, p, len);
			continue;
		}
		if (!strncmp(p, "@@ -", 4)) {
			if (hunk_counts(p, &old, &new) < 0)
				old = new = 0;
			strbuf_add(out, p, len);
			continue;
		}
		if (*p == '\\') {
			strbuf_add(out, p, len);
			continue;
		}
		if (!strncmp(p, "--- ", 4) && nl && !strncmp(nl + 1, "+++ ", 4)) {
			char *a, *b;
			size_t bl;

			nl2 = strchr(nl + 1, '\n');
			a = diff_path(p + 4, (size_t)(nl - p) - 4);
			b = diff_path(nl + 5, nl2 ? (size_t)(nl2 - nl - 5) :
				      strlen(nl + 5));
			bl = b ? strlen(b) : 0;
			if (a && b && !strncmp(a, b, bl) && a[bl] == '~')
				a[bl] = '\0';
			if (!a && !b) {	/* /dev/null to /dev/null */
				nl = nl2;
				continue;
			}
			strbuf_addf(out, "diff --git a/%s b/%s\n", a ? a : b,
				    b ? b : a);
			if (!a)
				strbuf_addstr(out, "new file mode 100644\n");
			if (!b)
				strbuf_addstr(out, "deleted file mode 100644\n");
			strbuf_addf(out, "--- %s%s\n+++ %s%s\n", a ? "a/" : "",
				    a ? a : "/dev/null", b ? "b/" : "",
				    b ? b : "/dev/null");
			free(a);
			free(b);
			nl = nl2;
			continue;
		}
		/* Index:, "====", "diff -puN": not for libgit2 */
	}
}
