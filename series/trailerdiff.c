// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/trailerdiff.h"
#include "series/patchtexts.h"
#include "tools/lib/error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- versions ---- */

void trailerdiff_version_init(struct trailerdiff_version *v, int number)
{
	memset(v, 0, sizeof(*v));
	v->number = number;
	trailer_list_init(&v->series_given);
}

void trailerdiff_version_release(struct trailerdiff_version *v)
{
	size_t i;

	for (i = 0; i < v->nr; i++) {
		free(v->patches[i].title);
		trailer_list_release(&v->patches[i].own);
		trailer_list_release(&v->patches[i].given);
	}
	free(v->patches);
	trailer_list_release(&v->series_given);
	trailerdiff_version_init(v, 0);
}

struct trailerdiff_patch *trailerdiff_version_add(struct trailerdiff_version *v,
						  const char *title)
{
	struct trailerdiff_patch *p;

	ALLOC_GROW(v->patches, v->nr, v->alloc);
	p = &v->patches[v->nr++];
	memset(p, 0, sizeof(*p));
	p->title = xstrdup(title ? title : "");
	trailer_list_init(&p->own);
	trailer_list_init(&p->given);
	return p;
}

static int hunk_line(const char *p, const char *e)
{
	return p < e && (*p == ' ' || *p == '+' || *p == '-' || *p == '\\');
}

void trailerdiff_patch_set_diff(struct trailerdiff_patch *p, const char *diff,
				size_t len)
{
	const char *s = diff, *end = diff + len;
	struct strbuf lines = STRBUF_INIT;
	int in_hunk = 0;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;

		if (e - s >= 2 && s[0] == '@' && s[1] == '@') {
			in_hunk = 1;
		} else if (in_hunk && hunk_line(s, e)) {
			if (*s == '+' || *s == '-')
				strbuf_add(&lines, s, (size_t)(e - s + 1));
		} else if (in_hunk && e > s) {
			in_hunk = 0;
		}
		if (!in_hunk && e - s > 11 && !strncmp(s, "diff --git ", 11))
			strbuf_add(&lines, s, (size_t)(e - s + 1));
		s = nl ? nl + 1 : end;
	}
	p->has_change = git_odb_hash(&p->change, lines.buf, lines.len,
				     GIT_OBJECT_BLOB) == 0;
	strbuf_release(&lines);
}

static void list_copy(struct trailer_list *to, const struct trailer_list *from)
{
	size_t i;

	for (i = 0; i < from->nr; i++)
		trailer_list_add(to, from->items[i].key,
				 strlen(from->items[i].key),
				 from->items[i].value,
				 strlen(from->items[i].value));
}

void trailerdiff_version_from_mailset(struct trailerdiff_version *out,
				      const struct mailset *ms, long vi)
{
	const struct ms_version *v = &ms->versions[vi];
	long k;

	trailerdiff_version_init(out, v->number);
	if (v->cover >= 0 && v->cover_part.d)
		list_copy(&out->series_given, &v->cover_part.d->reply_trailers);
	for (k = 0; k < v->total; k++) {
		const struct ms_patch *slot = &v->patches[k];
		const struct ms_detail *d = slot->d;
		struct trailerdiff_patch *p;

		p = trailerdiff_version_add(out, slot->msg >= 0 ?
					    ms->msgs[slot->msg].tags.title :
					    NULL);
		if (slot->msg < 0 || !d)
			continue;
		if (d->has_patch_id) {
			git_oid_cpy(&p->patch_id, &d->patch_id);
			p->has_patch_id = 1;
		}
		if (d->pm.diff.p)
			trailerdiff_patch_set_diff(p, d->pm.diff.p,
						   d->pm.diff.len);
		list_copy(&p->own, &d->pm.trailers);
		list_copy(&p->given, &d->reply_trailers);
	}
}

/* ---- recorded versions ---- */

/* The trailers of a commit message, as git reads them. */
static void message_trailers(const char *message, struct trailer_list *out)
{
	git_message_trailer_array t = { 0 };
	size_t i;

	if (git_message_trailers(&t, message) < 0) {
		git_error_clear();
		return;
	}
	for (i = 0; i < t.count; i++)
		trailer_list_add(out, t.trailers[i].key,
				 strlen(t.trailers[i].key), t.trailers[i].value,
				 strlen(t.trailers[i].value));
	git_message_trailer_array_free(&t);
}

void trailerdiff_given_text(const struct mailset *ms, long vi,
			    struct strbuf *out)
{
	const struct ms_version *v = &ms->versions[vi];
	long k;

	for (k = -1; k < v->total; k++) {
		const struct ms_detail *d = k < 0 ? v->cover_part.d :
					    v->patches[k].d;
		size_t i;

		if (!d || (k < 0 && v->cover < 0))
			continue;
		for (i = 0; i < d->reply_trailers.nr; i++) {
			const struct trailer *t = &d->reply_trailers.items[i];

			/* a value from mail has no newline: one line each */
			strbuf_addf(out, "%ld %s: %s\n", k + 1, t->key,
				    t->value);
		}
	}
}

/* Reads "N Key: value" lines back into out. */
static void given_parse(struct trailerdiff_version *out, const char *text)
{
	const char *s = text;

	while (*s) {
		const char *nl = strchr(s, '\n');
		const char *e = nl ? nl : s + strlen(s), *key, *val;
		char *num_end;
		long n = strtol(s, &num_end, 10);
		size_t klen;

		if (num_end > s && *num_end == ' ' && n >= 0 &&
		    (size_t)n <= out->nr &&
		    trailer_line_parse(num_end + 1, e, &key, &klen, &val))
			trailer_list_add(n ? &out->patches[n - 1].given :
					 &out->series_given, key, klen, val,
					 (size_t)(e - val));
		s = nl ? nl + 1 : e;
	}
}

int trailerdiff_version_from_store(struct trailerdiff_version *out,
				   git_repository *repo,
				   const struct series *s,
				   const struct series_version *v,
				   const struct rangediff_patch *rp,
				   size_t nr)
{
	struct strbuf text = STRBUF_INIT;
	size_t i;
	int r;

	trailerdiff_version_init(out, v->number);
	for (i = 0; i < nr; i++) {
		const struct series_patch *sp = i < v->nr_patches ?
						&v->patches[i] : NULL;
		struct trailerdiff_patch *p;

		p = trailerdiff_version_add(out, sp && sp->subject ?
					    sp->subject : rp[i].subject);
		if (sp && !git_oid_is_zero(&sp->patch_id)) {
			git_oid_cpy(&p->patch_id, &sp->patch_id);
			p->has_patch_id = 1;
		}
		if (rp[i].diff_offset)
			trailerdiff_patch_set_diff(p, rp[i].text + rp[i].diff_offset,
						   rp[i].len - rp[i].diff_offset);
		strbuf_reset(&text);
		rangediff_patch_message(&rp[i], &text);
		message_trailers(text.buf, &p->own);
	}
	strbuf_reset(&text);
	r = series_version_text(repo, s, v, SERIES_TEXT_GIVEN, &text);
	if (!r)
		given_parse(out, text.buf);
	strbuf_release(&text);
	return r == RESPIN_ENOTFOUND ? 0 : r;
}

/* ---- the comparison ---- */

static int watched(const char *key)
{
	size_t n = strlen(key);

	return (n > 3 && !strcasecmp(key + n - 3, "-by")) ||
	       !strcasecmp(key, "Fixes");
}

/* [*p, *e) of the address in "Name <addr>", or of the whole value. */
static void who_span(const char *v, const char **p, const char **e)
{
	const char *lt = strchr(v, '<'), *gt = lt ? strchr(lt, '>') : NULL;

	if (lt && gt) {
		*p = lt + 1;
		*e = gt;
		return;
	}
	while (isspace((unsigned char)*v))
		v++;
	*p = v;
	*e = v + strlen(v);
	while (*e > *p && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

static int same_trailer(const struct trailer *x, const struct trailer *y)
{
	const char *xp, *xe, *yp, *ye;

	if (strcasecmp(x->key, y->key))
		return 0;
	if (!strcasecmp(x->key, "Fixes")) {
		size_t a = strspn(x->value, "0123456789abcdefABCDEF");
		size_t b = strspn(y->value, "0123456789abcdefABCDEF");
		size_t n = a < b ? a : b;

		return n >= 8 && !strncasecmp(x->value, y->value, n);
	}
	who_span(x->value, &xp, &xe);
	who_span(y->value, &yp, &ye);
	return xe - xp == ye - yp && !strncasecmp(xp, yp, (size_t)(xe - xp));
}

static int list_has(const struct trailer_list *l, const struct trailer *t)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (same_trailer(&l->items[i], t))
			return 1;
	return 0;
}

static int patch_has(const struct trailerdiff_version *v,
		     const struct trailerdiff_patch *p, const struct trailer *t)
{
	return list_has(&p->own, t) || list_has(&p->given, t) ||
	       list_has(&v->series_given, t);
}

/* The patch of a that b[j] is the same as, or -1. */
static long pair_of(const struct trailerdiff_version *a, const int *used,
		    const struct trailerdiff_patch *pb)
{
	size_t i;

	for (i = 0; pb->has_patch_id && i < a->nr; i++)
		if (!used[i] && a->patches[i].has_patch_id &&
		    git_oid_equal(&a->patches[i].patch_id, &pb->patch_id))
			return (long)i;
	for (i = 0; pb->has_change && i < a->nr; i++)
		if (!used[i] && a->patches[i].has_change &&
		    git_oid_equal(&a->patches[i].change, &pb->change) &&
		    !strcmp(a->patches[i].title, pb->title))
			return (long)i;
	return -1;
}

static void lost_add(struct trailerdiff *out, size_t a, size_t b,
		     const struct trailer *t, enum trailerdiff_where where)
{
	struct trailerdiff_lost *l;
	size_t i;

	for (i = 0; i < out->nr; i++)
		if (out->items[i].b == b && !strcasecmp(out->items[i].key, t->key) &&
		    !strcmp(out->items[i].value, t->value))
			return;
	ALLOC_GROW(out->items, out->nr, out->alloc);
	l = &out->items[out->nr++];
	l->a = a;
	l->b = b;
	l->key = xstrdup(t->key);
	l->value = xstrdup(t->value);
	l->where = where;
}

static void lost_from(struct trailerdiff *out, const struct trailerdiff_version *b,
		      size_t ia, size_t ib, const struct trailer_list *from,
		      enum trailerdiff_where where)
{
	size_t i;

	for (i = 0; i < from->nr; i++) {
		const struct trailer *t = &from->items[i];

		if (watched(t->key) && !patch_has(b, &b->patches[ib], t))
			lost_add(out, ia, ib, t, where);
	}
}

void trailerdiff_compute(struct trailerdiff *out,
			 const struct trailerdiff_version *a,
			 const struct trailerdiff_version *b)
{
	int *used = xcalloc(a->nr ? a->nr : 1, sizeof(*used));
	size_t j;

	memset(out, 0, sizeof(*out));
	out->va = a->number;
	out->vb = b->number;
	out->na = a->nr;
	out->nb = b->nr;
	for (j = 0; j < b->nr; j++) {
		long i = pair_of(a, used, &b->patches[j]);

		if (i < 0)
			continue;
		used[i] = 1;
		lost_from(out, b, (size_t)i, j, &a->patches[i].own,
			  TRAILERDIFF_IN_PATCH);
		lost_from(out, b, (size_t)i, j, &a->patches[i].given,
			  TRAILERDIFF_IN_REPLY);
		lost_from(out, b, (size_t)i, j, &a->series_given,
			  TRAILERDIFF_FOR_SERIES);
	}
	free(used);
}

int trailerdiff_between(struct trailerdiff *out, git_repository *repo,
			const struct series *s,
			const struct series_version *va,
			const struct series_version *vb)
{
	struct rangediff_patch *pa = NULL, *pb = NULL;
	struct trailerdiff_version a, b;
	size_t na = 0, nb = 0;
	int r;

	memset(out, 0, sizeof(*out));
	trailerdiff_version_init(&a, va->number);
	trailerdiff_version_init(&b, vb->number);
	r = series_rangediff_patches(repo, NULL, s, va, &pa, &na);
	if (!r)
		r = series_rangediff_patches(repo, NULL, s, vb, &pb, &nb);
	if (!r)
		r = trailerdiff_version_from_store(&a, repo, s, va, pa, na);
	if (!r)
		r = trailerdiff_version_from_store(&b, repo, s, vb, pb, nb);
	if (!r)
		trailerdiff_compute(out, &a, &b);
	trailerdiff_version_release(&a);
	trailerdiff_version_release(&b);
	rangediff_patches_free(pa, na);
	rangediff_patches_free(pb, nb);
	return r;
}

int trailerdiff_since_previous(struct trailerdiff *out, git_repository *repo,
			       struct series *s, struct series_version *v)
{
	struct series_version *prev = NULL;
	size_t i;
	int r;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < s->nr_versions && &s->versions[i] != v; i++)
		prev = &s->versions[i];
	if (!prev || i == s->nr_versions)
		return 0;
	r = series_version_ensure(repo, s, prev);
	if (!r)
		r = series_version_ensure(repo, s, v);
	return r ? r : trailerdiff_between(out, repo, s, prev, v);
}

void trailerdiff_release(struct trailerdiff *td)
{
	size_t i;

	for (i = 0; i < td->nr; i++) {
		free(td->items[i].key);
		free(td->items[i].value);
	}
	free(td->items);
	memset(td, 0, sizeof(*td));
}

void trailerdiff_describe(const struct trailerdiff *td,
			  const struct trailerdiff_lost *l, struct strbuf *out)
{
	strbuf_addf(out, "lost %s: %s (", l->key, l->value);
	if (l->where == TRAILERDIFF_IN_PATCH)
		strbuf_addf(out, "on v%d %zu/%zu", td->va, l->a + 1, td->na);
	else if (l->where == TRAILERDIFF_IN_REPLY)
		strbuf_addf(out, "given to v%d %zu/%zu in a reply", td->va,
			    l->a + 1, td->na);
	else
		strbuf_addf(out, "given to the v%d series in a reply", td->va);
	strbuf_addstr(out, ", unchanged since)");
}

void trailerdiff_lost_json(struct json *j, const struct trailerdiff *td,
			   const struct trailerdiff_lost *l)
{
	static const char *const where[] = { "patch", "reply", "series" };
	struct strbuf text = STRBUF_INIT;

	trailerdiff_describe(td, l, &text);
	json_object_begin(j);
	json_string_member(j, "key", l->key);
	json_string_member(j, "value", l->value);
	json_int_member(j, "version", td->va);
	json_int_member(j, "index", (int64_t)l->a + 1);
	json_string_member(j, "where", where[l->where]);
	json_int_member(j, "patch", (int64_t)l->b + 1);
	json_string_member(j, "text", text.buf);
	json_object_end(j);
	strbuf_release(&text);
}

void trailerdiff_line(const struct trailerdiff *td, size_t i,
		      struct strbuf *out)
{
	strbuf_addf(out, "v%d %zu/%zu ", td->vb, td->items[i].b + 1, td->nb);
	trailerdiff_describe(td, &td->items[i], out);
}

void trailerdiff_lines(struct strbuf *out, git_repository *repo,
		       struct series *s, struct series_version *v)
{
	struct trailerdiff td = { 0 };
	size_t i;

	if (trailerdiff_since_previous(&td, repo, s, v) < 0) {
		strbuf_addf(out, "cannot compare the tags of %s v%d with the "
			    "version before it: %s\n", s->name, v->number,
			    error_last());
		error_clear();
	}
	for (i = 0; i < td.nr; i++) {
		trailerdiff_line(&td, i, out);
		strbuf_addch(out, '\n');
	}
	trailerdiff_release(&td);
}
