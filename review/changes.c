// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/changes.h"
#include "series/patchtexts.h"
#include "series/splits.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int same_diff(const struct rangediff_patch *x,
		     const struct rangediff_patch *y)
{
	size_t lx = x->len - x->diff_offset, ly = y->len - y->diff_offset;

	return lx == ly && !memcmp(x->text + x->diff_offset,
				   y->text + y->diff_offset, lx);
}

/* The message without its trailer lines ("Key: value"). */
static void message_sans_trailers(const struct rangediff_patch *p,
				  struct strbuf *out)
{
	struct strbuf m = STRBUF_INIT, line = STRBUF_INIT;
	git_message_trailer_array t = { 0 };
	const char *s, *nl;
	size_t i;

	rangediff_patch_message(p, &m);
	if (git_message_trailers(&t, m.buf) < 0)
		git_error_clear();
	for (s = m.buf; *s; s = nl ? nl + 1 : s + strlen(s)) {
		int trailer = 0;

		nl = strchr(s, '\n');
		strbuf_reset(&line);
		strbuf_add(&line, s, nl ? (size_t)(nl - s) : strlen(s));
		for (i = 0; i < t.count && !trailer; i++) {
			size_t kl = strlen(t.trailers[i].key);

			trailer = line.len > kl + 1 &&
				  !strncasecmp(line.buf, t.trailers[i].key, kl) &&
				  line.buf[kl] == ':' &&
				  !strcmp(line.buf + kl + 1 +
					  (line.buf[kl + 1] == ' '),
					  t.trailers[i].value);
		}
		if (!trailer)
			strbuf_addf(out, "%s\n", line.buf);
	}
	strbuf_rtrim(out);
	git_message_trailer_array_free(&t);
	strbuf_release(&m);
	strbuf_release(&line);
}

/* The same message, trailers aside (those are reported on their own). */
static int same_message(const struct rangediff_patch *a,
			const struct rangediff_patch *b)
{
	struct strbuf ma = STRBUF_INIT, mb = STRBUF_INIT;
	int same;

	message_sans_trailers(a, &ma);
	message_sans_trailers(b, &mb);
	same = ma.len == mb.len && !memcmp(ma.buf, mb.buf, ma.len);
	strbuf_release(&ma);
	strbuf_release(&mb);
	return same;
}

static int is_pickup_key(const char *key)
{
	size_t n = strlen(key);

	return n > 3 && !strcasecmp(key + n - 3, "-by") &&
	       strcasecmp(key, "Signed-off-by");
}

/* "; picked up Reviewed-by: X" for each such trailer b has and a lacks. */
static void add_pickups(const struct rangediff_patch *a,
			const struct rangediff_patch *b, struct strbuf *what)
{
	struct strbuf ma = STRBUF_INIT, mb = STRBUF_INIT;
	git_message_trailer_array ta = { 0 }, tb = { 0 };
	size_t i, k;

	rangediff_patch_message(a, &ma);
	rangediff_patch_message(b, &mb);
	if (git_message_trailers(&ta, ma.buf) < 0 ||
	    git_message_trailers(&tb, mb.buf) < 0) {
		git_error_clear();
		goto out;
	}
	for (i = 0; i < tb.count; i++) {
		int had = 0;

		if (!is_pickup_key(tb.trailers[i].key))
			continue;
		for (k = 0; k < ta.count && !had; k++)
			had = !strcasecmp(ta.trailers[k].key,
					  tb.trailers[i].key) &&
			      !strcmp(ta.trailers[k].value,
				      tb.trailers[i].value);
		if (!had)
			strbuf_addf(what, "; picked up %s: %s",
				    tb.trailers[i].key, tb.trailers[i].value);
	}
out:
	git_message_trailer_array_free(&ta);
	git_message_trailer_array_free(&tb);
	strbuf_release(&ma);
	strbuf_release(&mb);
}

/*
 * kept[j] = 1 for the b patches in a longest run of pairs whose a
 * positions increase with their b positions; the others moved.
 */
static void find_kept(const int *b_to_a, size_t nb, int *kept)
{
	size_t *len = xcalloc(nb ? nb : 1, sizeof(*len));
	long *prev = xcalloc(nb ? nb : 1, sizeof(*prev));
	size_t j, k, best_len = 0;
	long best = -1, at;

	for (j = 0; j < nb; j++) {
		kept[j] = 0;
		prev[j] = -1;
		if (b_to_a[j] < 0)
			continue;
		len[j] = 1;
		for (k = 0; k < j; k++)
			if (b_to_a[k] >= 0 && b_to_a[k] < b_to_a[j] &&
			    len[k] + 1 > len[j]) {
				len[j] = len[k] + 1;
				prev[j] = (long)k;
			}
		if (len[j] > best_len) {
			best_len = len[j];
			best = (long)j;
		}
	}
	for (at = best; at >= 0; at = prev[at])
		kept[at] = 1;
	free(len);
	free(prev);
}

static void add_item(struct strbuf *out, const char *text)
{
	/* wrap at ~72 columns, continuation lines indented by two */
	const char *p = text;
	size_t col = 0;
	int first = 1;

	strbuf_addstr(out, "- ");
	col = 2;
	while (*p) {
		const char *sp = strchr(p, ' ');
		size_t n = sp ? (size_t)(sp - p) : strlen(p);

		if (!first && col + 1 + n > 72) {
			strbuf_addstr(out, "\n  ");
			col = 2;
		} else if (!first) {
			strbuf_addch(out, ' ');
			col++;
		}
		strbuf_add(out, p, n);
		col += n;
		first = 0;
		p += n;
		while (*p == ' ')
			p++;
	}
	strbuf_addch(out, '\n');
}

/* What changed in a pair, or nothing when nothing did; how many items. */
static size_t describe_pair(const struct rangediff_patch *pa, int ia,
			    size_t na, const struct rangediff_patch *pb,
			    size_t jb, size_t nb, int kept, struct strbuf *out)
{
	struct strbuf what = STRBUF_INIT, item = STRBUF_INIT;
	size_t n;

	if (!kept)
		strbuf_addf(&what, "; moved (was %d/%zu)", ia + 1, na);
	if (strcmp(pa->subject, pb->subject))
		strbuf_addf(&what, "; reworded (was \"%s\")", pa->subject);
	if (!same_diff(pa, pb))
		strbuf_addstr(&what, "; code changed");
	else if (!same_message(pa, pb))
		strbuf_addstr(&what, "; commit message changed");
	add_pickups(pa, pb, &what);
	n = what.len ? 1 : 0;
	if (n) {
		strbuf_addf(&item, "%zu/%zu \"%s\": %s", jb + 1, nb,
			    pb->subject, what.buf + 2);
		add_item(out, item.buf);
	}
	strbuf_release(&what);
	strbuf_release(&item);
	return n;
}

/*
 * The pairs of the range-diff (and by title), without those inside a
 * split or a squash: those are told as such.
 */
static void pair_up(const struct rangediff *rd, const struct splits *sp,
		    int *a_to_b, int *b_to_a)
{
	size_t i;

	for (i = 0; i < rd->na; i++)
		a_to_b[i] = -1;
	for (i = 0; i < rd->nb; i++)
		b_to_a[i] = -1;
	for (i = 0; i < rd->nr_pairs; i++) {
		const struct rangediff_pair *p = &rd->pairs[i];

		if (p->a >= 0 && p->b >= 0 && !splits_of(sp, 0, p->a) &&
		    !splits_of(sp, 1, p->b)) {
			a_to_b[p->a] = p->b;
			b_to_a[p->b] = p->a;
		}
	}
}

/* New patch j's item when it is in a split or a squash; how many. */
static size_t describe_split(const struct splits *sp,
			     const struct rangediff_patch *a, size_t na,
			     const struct rangediff_patch *b, size_t j,
			     size_t nb, struct strbuf *out)
{
	const struct splits_item *it = splits_of(sp, 1, (int)j);
	struct strbuf item = STRBUF_INIT;

	if (it->kind == SPLITS_SPLIT) {
		/* told once, at its first piece */
		if (it->many[0] != (int)j)
			return 0;
		strbuf_addf(&item, "Split \"%s\" (was %d/%zu) into ",
			    a[it->one].subject, it->one + 1, na);
		splits_positions(&item, it, nb);
	} else {
		strbuf_addf(&item, "%zu/%zu \"%s\": squashed from ", j + 1, nb,
			    b[j].subject);
		splits_positions(&item, it, na);
	}
	add_item(out, item.buf);
	strbuf_release(&item);
	return 1;
}

size_t changes_describe(const struct rangediff_patch *a, size_t na,
			const struct rangediff_patch *b, size_t nb,
			struct strbuf *out)
{
	struct rangediff rd = { 0 };
	struct splits sp = { 0 };
	int *a_to_b = xmalloc((na ? na : 1) * sizeof(int));
	int *b_to_a = xmalloc((nb ? nb : 1) * sizeof(int));
	int *kept = xmalloc((nb ? nb : 1) * sizeof(int));
	struct strbuf item = STRBUF_INIT;
	size_t i, j, items = 0;

	if (splits_pair_versions(a, na, b, nb, &rd, &sp) < 0) {
		error_clear();
		rd.na = na;
		rd.nb = nb;
	}
	pair_up(&rd, &sp, a_to_b, b_to_a);
	rangediff_release(&rd);
	find_kept(b_to_a, nb, kept);

	for (j = 0; j < nb; j++) {
		strbuf_reset(&item);
		if (splits_of(&sp, 1, (int)j)) {
			items += describe_split(&sp, a, na, b, j, nb, out);
		} else if (b_to_a[j] < 0) {
			strbuf_addf(&item, "New patch %zu/%zu: \"%s\"", j + 1,
				    nb, b[j].subject);
			add_item(out, item.buf);
			items++;
		} else {
			items += describe_pair(&a[b_to_a[j]], b_to_a[j], na,
					       &b[j], j, nb, kept[j], out);
		}
	}
	for (i = 0; i < na; i++) {
		if (a_to_b[i] >= 0 || splits_of(&sp, 0, (int)i))
			continue;
		strbuf_reset(&item);
		strbuf_addf(&item, "Dropped \"%s\" (was %zu/%zu)", a[i].subject,
			    i + 1, na);
		add_item(out, item.buf);
		items++;
	}
	strbuf_release(&item);
	splits_release(&sp);
	free(a_to_b);
	free(b_to_a);
	free(kept);
	return items;
}

/*
 * "- Rebased onto mm-unstable (1a2b3c4d5e6f) (conflict in mm/foo.c
 * resolved by hand)" when cur sits on another base than prev; the
 * files from the " conflict PATH" lines respin rebase wrote.
 */
static void add_rebased(const struct series *s,
			const struct series_version *prev,
			const struct series_version *cur, struct strbuf *out)
{
	struct strbuf item = STRBUF_INIT, files = STRBUF_INIT;
	const char *ref = cur->base_ref ? cur->base_ref : s->base_ref;
	size_t i, nf = 0;

	if (git_oid_is_zero(&prev->base) || git_oid_is_zero(&cur->base) ||
	    git_oid_equal(&prev->base, &cur->base))
		return;
	for (i = 0; i < cur->nr_patches; i++) {
		const char *p = cur->patches[i].extra.buf;

		while ((p = strstr(p, " conflict "))) {
			const char *f = p + 10, *nl = strchr(f, '\n');
			size_t len = nl ? (size_t)(nl - f) : strlen(f);

			if (p == cur->patches[i].extra.buf || p[-1] == '\n') {
				strbuf_addf(&files, "%s%.*s", nf ? ", " : "",
					    (int)len, f);
				nf++;
			}
			p = f + len;
		}
	}
	strbuf_addstr(&item, "Rebased onto ");
	if (ref)
		strbuf_addf(&item, "%s (%s)", repo_ref_short(ref),
			    oid_short(&cur->base, 12));
	else
		strbuf_addstr(&item, oid_short(&cur->base, 12));
	if (nf)
		strbuf_addf(&item, " (conflict in %s resolved by hand)",
			    files.buf);
	add_item(out, item.buf);
	strbuf_release(&item);
	strbuf_release(&files);
}

int changes_between(git_repository *repo, const struct series *s,
		    const struct series_version *prev,
		    const struct series_version *cur, struct strbuf *out)
{
	struct rangediff_patch *pa = NULL, *pb = NULL;
	size_t na = 0, nb = 0;
	git_mailmap *mailmap = NULL;
	int r;

	if (git_mailmap_from_repository(&mailmap, repo) < 0) {
		git_error_clear();
		mailmap = NULL;
	}
	r = series_rangediff_patches(repo, mailmap, s, prev, &pa, &na);
	if (!r)
		r = series_rangediff_patches(repo, mailmap, s, cur, &pb, &nb);
	if (!r)
		changes_describe(pa, na, pb, nb, out);
	if (!r)
		add_rebased(s, prev, cur, out);
	rangediff_patches_free(pa, na);
	rangediff_patches_free(pb, nb);
	git_mailmap_free(mailmap);
	return r;
}
