// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stable patch-id of a diff, as `git patch-id --stable` finds it in
 * the text git prints (see patches/patch.h).
 */
#include "patches/patch.h"

#include <glib.h>
#include <string.h>

struct pid_state {
	GChecksum *sha;
	unsigned char sum[20];	/* the per-file SHA-1s added, little-endian */
	size_t hashed;		/* bytes hashed so far */
};

static int starts(const char *p, const char *e, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(e - p) >= n && !memcmp(p, s, n);
}

static const char *line_end(const char *p, const char *e)
{
	const char *nl = memchr(p, '\n', (size_t)(e - p));

	return nl ? nl + 1 : e;
}

/* One file's SHA-1 added into the sum (with carry), the hash restarted. */
static void pid_flush(struct pid_state *s)
{
	guint8 d[20];
	gsize n = sizeof(d);
	unsigned carry = 0;
	size_t i;

	g_checksum_get_digest(s->sha, d, &n);
	g_checksum_reset(s->sha);
	for (i = 0; i < sizeof(d); i++) {
		carry += s->sum[i] + d[i];
		s->sum[i] = (unsigned char)carry;
		carry >>= 8;
	}
}

/* The line [p, e) without its blanks, into the hash. */
static void pid_hash(struct pid_state *s, const char *p, const char *e)
{
	char buf[256];
	size_t n = 0;

	for (; p < e; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
		    *p == '\v' || *p == '\f')
			continue;
		buf[n++] = *p;
		if (n == sizeof(buf)) {
			g_checksum_update(s->sha, (const guchar *)buf, n);
			s->hashed += n;
			n = 0;
		}
	}
	g_checksum_update(s->sha, (const guchar *)buf, n);
	s->hashed += n;
}

/* The counts b and d of "@@ -a[,b] +c[,d] @@" (each 1 when left out). */
static int hunk_counts(const char *p, const char *e, int *old, int *new)
{
	const char *q = p + 4;
	int o = 1, n = 1;

	while (q < e && *q >= '0' && *q <= '9')
		q++;
	if (q < e && *q == ',')
		for (o = 0, q++; q < e && *q >= '0' && *q <= '9'; q++)
			o = o * 10 + (*q - '0');
	if (q + 2 > e || q[0] != ' ' || q[1] != '+')
		return 0;
	for (q += 2; q < e && *q >= '0' && *q <= '9'; q++)
		;
	if (q < e && *q == ',')
		for (n = 0, q++; q < e && *q >= '0' && *q <= '9'; q++)
			n = n * 10 + (*q - '0');
	*old = o;
	*new = n;
	return 1;
}

/*
 * git's reading of a diff for its patch-id: per file, its header lines
 * but "index" (a header that has no hunk runs on into the next file's
 * hash, as git's does), then its "---"/"+++" lines and hunk lines, all
 * without blanks; hunk headers and "\ No newline" are left out.  git
 * prints no "---"/"+++" for a file that has no hunk (an empty file
 * added or removed) and libgit2 does, so those are left out too.
 */
static void pid_text(struct pid_state *s, const char *p, const char *end)
{
	int before = -1, after = -1;

	for (; p < end; p = line_end(p, end)) {
		const char *e = line_end(p, end);

		if (starts(p, e, "\\ ") && e - p > 12)
			continue;
		if (!s->hashed && !starts(p, e, "diff "))
			continue;
		if (before == -1) {
			if (starts(p, e, "index "))
				continue;
			if (starts(p, e, "--- ")) {
				const char *n = e, *n2 = line_end(n, end);

				if (starts(n, n2, "+++ ") &&
				    !starts(n2, end, "@@ -")) {
					p = n;	/* no hunk follows */
					continue;
				}
				before = after = 1;
			} else if (!g_ascii_isalpha(*p)) {
				break;
			}
		}
		if (before == 0 && after == 0) {
			if (starts(p, e, "@@ -")) {
				hunk_counts(p, e, &before, &after);
				continue;
			}
			if (!starts(p, e, "diff "))
				break;
			pid_flush(s);
			before = after = -1;
		}
		if (*p == '-' || *p == ' ')
			before--;
		if (*p == '+' || *p == ' ')
			after--;
		pid_hash(s, p, e);
	}
	pid_flush(s);
}

int patch_diff_id(git_diff *diff, git_oid *out)
{
	git_buf buf = GIT_BUF_INIT;
	struct pid_state s;

	if (git_diff_to_buf(&buf, diff, GIT_DIFF_FORMAT_PATCH) < 0)
		return -1;
	memset(&s, 0, sizeof(s));
	s.sha = g_checksum_new(G_CHECKSUM_SHA1);
	pid_text(&s, buf.ptr, buf.ptr + buf.size);
	g_checksum_free(s.sha);
	git_buf_dispose(&buf);
	return git_oid_fromraw(out, s.sum);
}
