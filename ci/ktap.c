// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KTAP / TAP parser.  Each line is cleaned (serial console noise),
 * then read at a depth: every four spaces, tab or "# " in front of a
 * KTAP construct is one level down.  A stack holds one open container
 * per depth; a result line at depth d closes the container open at
 * d + 1 (its subtests) or adds a leaf at d.
 */
#include "ci/ktap.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/strbuf.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A plan bigger than this is not a plan but noise. */
#define KTAP_MAX_PLAN 100000

enum line_kind {
	LINE_NONE,
	LINE_VERSION,
	LINE_PLAN,
	LINE_RESULT,
	LINE_BAIL,
	LINE_SUBTEST,
};

/* One line taken apart; pointers into the cleaned line. */
struct line {
	enum line_kind kind;
	int version;
	int ok;
	int number;		/* plan count for LINE_PLAN */
	const char *name;	/* description, subtest name, bail reason */
	size_t name_len;
	const char *directive;	/* after '#', trimmed, or NULL */
	size_t directive_len;
};

struct level {
	struct ktap_test *test;	/* the container of this depth's lines */
	struct strbuf diag;	/* diagnostics since the last result */
	size_t first;		/* its first subtest of this document */
};

struct parser {
	struct ktap_result *r;
	struct level *stack;
	size_t nr, alloc;
	int plan_total;		/* of the documents before this one */
	int planned;		/* some document had a plan */
};

static void test_free(struct ktap_test *t);

static void test_release(struct ktap_test *t)
{
	size_t i;

	for (i = 0; i < t->nr_subtests; i++)
		test_free(t->subtests[i]);
	free(t->subtests);
	free(t->name);
	free(t->directive_text);
	free(t->diagnostic);
	free(t->bail_reason);
}

static void test_free(struct ktap_test *t)
{
	if (!t)
		return;
	test_release(t);
	free(t);
}

static void test_init(struct ktap_test *t)
{
	memset(t, 0, sizeof(*t));
	t->plan = -1;
	t->status = KTAP_ERROR;
}

static struct ktap_test *test_add(struct ktap_test *parent, size_t at)
{
	struct ktap_test *t = xmalloc(sizeof(*t));

	test_init(t);
	ALLOC_GROW(parent->subtests, parent->nr_subtests,
		   parent->alloc_subtests);
	memmove(parent->subtests + at + 1, parent->subtests + at,
		(parent->nr_subtests - at) * sizeof(*parent->subtests));
	parent->subtests[at] = t;
	parent->nr_subtests++;
	return t;
}

void ktap_result_init(struct ktap_result *r)
{
	memset(r, 0, sizeof(*r));
	test_init(&r->root);
	r->root.status = KTAP_PASS;
	r->verdict = KTAP_VERDICT_ERROR;
}

void ktap_result_release(struct ktap_result *r)
{
	test_release(&r->root);
	free(r->reason);
	ktap_result_init(r);
}

const char *ktap_status_name(enum ktap_status s)
{
	switch (s) {
	case KTAP_PASS:
		return "PASS";
	case KTAP_FAIL:
		return "FAIL";
	case KTAP_SKIP:
		return "SKIP";
	case KTAP_TODO:
		return "TODO";
	case KTAP_XFAIL:
		return "XFAIL";
	case KTAP_ERROR:
		break;
	}
	return "ERROR";
}

const char *ktap_verdict_name(enum ktap_verdict v)
{
	switch (v) {
	case KTAP_VERDICT_PASS:
		return "PASS";
	case KTAP_VERDICT_FAIL:
		return "FAIL";
	case KTAP_VERDICT_ERROR:
		break;
	}
	return "ERROR";
}

/*
 * Copies a raw line without carriage returns, NULs, other control
 * characters and terminal escape sequences, then drops a printk
 * timestamp ("[   1.234567] ", optionally after "<6>") and trailing
 * blanks.
 */
static void line_clean(struct strbuf *out, const char *s, size_t len)
{
	size_t i = 0, skip = 0;
	const char *b;

	strbuf_reset(out);
	while (i < len) {
		unsigned char c = s[i];

		if (c != 0x1b) {
			if (c >= 0x20 || c == '\t')
				strbuf_addch(out, c);
			i++;
			continue;
		}
		if (++i >= len)
			break;
		c = s[i++];
		if (c == '[') {
			/* CSI: parameters and intermediates, then a final. */
			while (i < len && s[i] >= 0x20 && s[i] <= 0x3f)
				i++;
			if (i < len && s[i] >= 0x40 && s[i] <= 0x7e)
				i++;
		} else if (c == ']') {
			/* OSC: up to BEL or ESC \. */
			while (i < len && s[i] != 0x07 &&
			       !(s[i] == 0x1b && i + 1 < len && s[i + 1] == '\\'))
				i++;
			i += i < len && s[i] == 0x07 ? 1 : 2;
		} else if (c >= 0x20 && c <= 0x2f) {
			/* ESC ( B and friends: one more final byte. */
			if (i < len)
				i++;
		}
		/* Anything else (ESC c, ESC 7, ESC =) is two bytes. */
	}

	b = out->buf;
	if (b[0] == '<' && isdigit((unsigned char)b[1]) && b[2] == '>')
		skip = 3;
	if (b[skip] == '[') {
		size_t j = skip + 1;
		int digits = 0;

		while (b[j] == ' ')
			j++;
		while (isdigit((unsigned char)b[j]))
			j++, digits++;
		if (digits && b[j] == '.') {
			j++;
			while (isdigit((unsigned char)b[j]))
				j++;
			if (b[j] == ']') {
				j++;
				if (b[j] == ' ')
					j++;
				skip = j;
			}
		}
	}
	if (skip == 3 && b[3] != '[')
		skip = 0;
	if (skip) {
		memmove(out->buf, out->buf + skip, out->len - skip + 1);
		out->len -= skip;
	}
	strbuf_rtrim(out);
}

/* Reads 1 to 9 digits; returns the end or NULL. */
static const char *number_get(const char *s, int *n)
{
	int v = 0, digits = 0;

	while (isdigit((unsigned char)*s) && digits < 9) {
		v = v * 10 + (*s++ - '0');
		digits++;
	}
	if (!digits || isdigit((unsigned char)*s))
		return NULL;
	*n = v;
	return s;
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Splits "description # directive" at the first '#' after a blank. */
static void result_text_split(const char *s, struct line *l)
{
	const char *hash = NULL, *p, *end;

	for (p = s; *p; p++) {
		if (*p == '#' && (p == s || p[-1] == ' ' || p[-1] == '\t')) {
			hash = p;
			break;
		}
	}
	end = hash ? hash : s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	l->name = s;
	l->name_len = end - s;
	if (hash) {
		l->directive = skip_blanks(hash + 1);
		l->directive_len = strlen(l->directive);
	}
}

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int starts_with_icase(const char *s, const char *prefix)
{
	return !strncasecmp(s, prefix, strlen(prefix));
}

/* Is s (at some depth) a KTAP line?  Fills l. */
static int line_classify(const char *s, struct line *l)
{
	const char *p;

	memset(l, 0, sizeof(*l));
	/* Stray blanks short of a full indent are noise. */
	if (s[0] == ' ') {
		size_t i = 0;

		while (s[i] == ' ' && i < 3)
			i++;
		if (s[i] != ' ')
			s += i;
	}

	if (starts_with(s, "KTAP version ") || starts_with(s, "TAP version ")) {
		p = s + (s[0] == 'K' ? 13 : 12);
		if (!number_get(p, &l->version))
			return 0;
		l->kind = LINE_VERSION;
		return 1;
	}
	p = starts_with(s, "1..") ? number_get(s + 3, &l->number) : NULL;
	if (p) {
		p = skip_blanks(p);
		if (*p && *p != '#')
			return 0;
		if (l->number > KTAP_MAX_PLAN)
			return 0;
		if (*p == '#') {
			l->directive = skip_blanks(p + 1);
			l->directive_len = strlen(l->directive);
		}
		l->kind = LINE_PLAN;
		return 1;
	}
	if (starts_with(s, "ok ") || starts_with(s, "not ok ")) {
		l->ok = s[0] == 'o';
		p = s + (l->ok ? 3 : 7);
		p = number_get(p, &l->number);
		if (!p || (*p && *p != ' ' && *p != '\t'))
			return 0;
		p = skip_blanks(p);
		if (p[0] == '-' && (p[1] == ' ' || !p[1]))
			p = skip_blanks(p + 1);
		result_text_split(p, l);
		l->kind = LINE_RESULT;
		return 1;
	}
	if (starts_with_icase(s, "Bail out!")) {
		p = skip_blanks(s + 9);
		l->name = p;
		l->name_len = strlen(p);
		l->kind = LINE_BAIL;
		return 1;
	}
	if (starts_with(s, "# Subtest:")) {
		p = skip_blanks(s + 10);
		l->name = p;
		l->name_len = strlen(p);
		l->kind = LINE_SUBTEST;
		return 1;
	}
	return 0;
}

static char *dup_or_null(const char *s, size_t len)
{
	return s && len ? xstrndup(s, len) : NULL;
}

/* Appends a level's diagnostics to a test's and empties them. */
static void diag_move(struct ktap_test *t, struct strbuf *diag)
{
	struct strbuf sb = STRBUF_INIT;

	if (!diag->len)
		return;
	if (t->diagnostic)
		strbuf_addstr(&sb, t->diagnostic);
	strbuf_add(&sb, diag->buf, diag->len);
	free(t->diagnostic);
	t->diagnostic = strbuf_detach(&sb, NULL);
	strbuf_reset(diag);
}

/*
 * The end of a document at a level: every number 1..plan without a
 * result becomes a missing test, in its place; more results than
 * planned is a mismatch too.
 */
static struct ktap_test *missing_new(int number)
{
	struct ktap_test *m = xmalloc(sizeof(*m));

	test_init(m);
	m->number = number;
	m->missing = 1;
	return m;
}

static void plan_check(struct ktap_test *t, size_t first)
{
	struct ktap_test **old = t->subtests;
	size_t i, nr = t->nr_subtests, results = 0, missing = 0;
	unsigned char *seen;
	int n, next = 1;

	if (t->plan < 0)
		return;
	seen = xcalloc(t->plan + 1, 1);
	for (i = first; i < nr; i++) {
		struct ktap_test *s = old[i];

		if (s->missing)
			continue;
		results++;
		if (s->number >= 1 && s->number <= t->plan)
			seen[s->number] = 1;
		else
			t->plan_mismatch = 1;
	}
	if (results != (size_t)t->plan)
		t->plan_mismatch = 1;
	for (n = 1; n <= t->plan; n++)
		missing += !seen[n];
	if (!missing) {
		free(seen);
		return;
	}
	t->plan_mismatch = 1;

	/* Merge: each missing number goes before the next one seen. */
	t->subtests = NULL;
	t->nr_subtests = t->alloc_subtests = 0;
	for (i = 0; i < nr; i++) {
		struct ktap_test *s = old[i];

		if (i >= first && s->number >= next && s->number <= t->plan) {
			for (; next < s->number; next++) {
				if (seen[next])
					continue;
				ALLOC_GROW(t->subtests, t->nr_subtests,
					   t->alloc_subtests);
				t->subtests[t->nr_subtests++] = missing_new(next);
			}
		}
		ALLOC_GROW(t->subtests, t->nr_subtests, t->alloc_subtests);
		t->subtests[t->nr_subtests++] = s;
	}
	for (; next <= t->plan; next++) {
		if (seen[next])
			continue;
		ALLOC_GROW(t->subtests, t->nr_subtests, t->alloc_subtests);
		t->subtests[t->nr_subtests++] = missing_new(next);
	}
	free(old);
	free(seen);
}

static void level_push(struct parser *p, struct ktap_test *t)
{
	struct level *l;

	ALLOC_GROW(p->stack, p->nr, p->alloc);
	l = &p->stack[p->nr++];
	l->test = t;
	strbuf_init(&l->diag, 0);
	l->first = 0;
}

/* Closes the deepest level; its result line was seen or never will be. */
static void level_pop(struct parser *p)
{
	struct level *l = &p->stack[--p->nr];

	if (!l->test->has_result) {
		l->test->cut_off = 1;
		l->test->status = KTAP_ERROR;
	}
	diag_move(l->test, &l->diag);
	plan_check(l->test, l->first);
	strbuf_release(&l->diag);
}

/*
 * Opens containers down to depth.  Until its result line says
 * otherwise, a container takes the number after its last sibling, and
 * the name kselftest's runner announced ("# selftests: vm: x") just
 * before it, so that a crash inside it can be told.
 */
static void levels_open(struct parser *p, size_t depth)
{
	while (p->nr <= depth) {
		struct level *up = &p->stack[p->nr - 1];
		struct ktap_test *parent = up->test, *t;
		const char *last, *end;

		t = test_add(parent, parent->nr_subtests);
		t->number = 1;
		if (parent->nr_subtests > up->first + 1) {
			size_t prev = parent->nr_subtests - 2;

			t->number = parent->subtests[prev]->number + 1;
		}
		if (up->diag.len) {
			end = up->diag.buf + up->diag.len - 1;
			last = end;
			while (last > up->diag.buf && last[-1] != '\n')
				last--;
			if (starts_with(last, "selftests: "))
				t->name = xstrndup(last, end - last);
		}
		level_push(p, t);
	}
}

/* Closes containers deeper than depth. */
static void levels_close(struct parser *p, size_t depth)
{
	while (p->nr > depth + 1)
		level_pop(p);
}

/* The end of one top-level document: check its plan. */
static void document_end(struct parser *p)
{
	struct ktap_test *root = &p->r->root;

	levels_close(p, 0);
	plan_check(root, p->stack[0].first);
	if (root->plan >= 0) {
		p->plan_total += root->plan;
		p->planned = 1;
	} else if (root->nr_subtests > p->stack[0].first) {
		p->r->unplanned = 1;
	}
}

/*
 * A header (version, "# Subtest:", a second plan) at a depth whose
 * container already has content starts over: a new subtest below the
 * top, a new document (a second run in the same log) at the top.
 */
static void level_restart(struct parser *p, size_t depth)
{
	struct level *l = &p->stack[depth];

	if (l->test->plan < 0 && l->test->nr_subtests == l->first)
		return;
	if (depth > 0) {
		levels_close(p, depth - 1);
		levels_open(p, depth);
		return;
	}
	document_end(p);
	l->test->plan = -1;
	l->first = l->test->nr_subtests;
}

static void directive_set(struct ktap_test *t, const struct line *l)
{
	const char *d = l->directive;

	/* the result line's directive replaces one its plan gave */
	free(t->directive_text);
	t->directive_text = dup_or_null(d, l->directive_len);
	t->directive = KTAP_DIRECTIVE_NONE;
	t->status = l->ok ? KTAP_PASS : KTAP_FAIL;
	if (!d)
		return;
	if (starts_with_icase(d, "SKIP")) {
		t->directive = KTAP_DIRECTIVE_SKIP;
		t->status = KTAP_SKIP;
	} else if (starts_with_icase(d, "TODO")) {
		t->directive = KTAP_DIRECTIVE_TODO;
		t->status = KTAP_TODO;
	} else if (starts_with_icase(d, "XFAIL")) {
		t->directive = KTAP_DIRECTIVE_XFAIL;
		t->status = KTAP_XFAIL;
	} else if (starts_with_icase(d, "TIMEOUT")) {
		t->directive = KTAP_DIRECTIVE_TIMEOUT;
		t->status = KTAP_FAIL;
	} else if (starts_with_icase(d, "ERROR")) {
		t->directive = KTAP_DIRECTIVE_ERROR;
		t->status = KTAP_ERROR;
	} else {
		t->directive = KTAP_DIRECTIVE_OTHER;
	}
}

static void result_add(struct parser *p, size_t depth, const struct line *l)
{
	struct ktap_test *t;
	struct level *lv;

	if (p->nr > depth + 1) {
		/* It closes the subtest open below, first any deeper. */
		levels_close(p, depth + 1);
		t = p->stack[depth + 1].test;
		t->has_result = 1;
		level_pop(p);
	} else {
		levels_open(p, depth);
		lv = &p->stack[depth];
		t = test_add(lv->test, lv->test->nr_subtests);
		t->has_result = 1;
	}
	lv = &p->stack[depth];
	/* A header line's name gives way to the result line's. */
	if (l->name_len) {
		free(t->name);
		t->name = xstrndup(l->name, l->name_len);
	}
	t->number = l->number;
	t->ok = l->ok;
	directive_set(t, l);
	/* The diagnostics printed before it, then its own leftovers. */
	if (lv->diag.len) {
		char *own = t->diagnostic;

		t->diagnostic = NULL;
		diag_move(t, &lv->diag);
		if (own) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addstr(&sb, own);
			diag_move(t, &sb);
			strbuf_release(&sb);
			free(own);
		}
	}
}

static void line_handle(struct parser *p, size_t depth, const struct line *l)
{
	struct ktap_test *t;

	p->r->found = 1;
	switch (l->kind) {
	case LINE_VERSION:
		if (!depth && !p->r->version)
			p->r->version = l->version;
		if (p->nr > depth)
			level_restart(p, depth);
		levels_close(p, depth);
		levels_open(p, depth);
		break;
	case LINE_SUBTEST:
		if (p->nr > depth && p->stack[depth].test->nr_subtests !=
				     p->stack[depth].first)
			level_restart(p, depth);
		levels_close(p, depth);
		levels_open(p, depth);
		t = p->stack[depth].test;
		if (depth && l->name_len) {
			free(t->name);
			t->name = xstrndup(l->name, l->name_len);
		}
		break;
	case LINE_PLAN:
		if (p->nr > depth && p->stack[depth].test->plan >= 0)
			level_restart(p, depth);
		levels_close(p, depth);
		levels_open(p, depth);
		t = p->stack[depth].test;
		t->plan = l->number;
		if (l->directive && !t->directive_text && !t->has_result)
			t->directive_text = dup_or_null(l->directive,
							l->directive_len);
		break;
	case LINE_RESULT:
		result_add(p, depth, l);
		break;
	case LINE_BAIL:
		/* Below the top, it ends a test that its runner reports. */
		levels_close(p, depth);
		levels_open(p, depth);
		t = p->stack[depth].test;
		if (!t->bailed_out) {
			t->bailed_out = 1;
			t->bail_reason = dup_or_null(l->name, l->name_len);
		}
		break;
	case LINE_NONE:
		break;
	}
}

/* A cleaned line: find its depth and what it is. */
static void line_parse(struct parser *p, const char *s)
{
	const char *diag = NULL;
	size_t depth = 0, diag_depth = 0;
	struct line l;

	for (;;) {
		if (line_classify(s, &l)) {
			line_handle(p, depth, &l);
			return;
		}
		if (*s == '#') {
			diag = s;
			diag_depth = depth;
		}
		if (starts_with(s, "    "))
			s += 4;
		else if (*s == '\t')
			s++;
		else if (s[0] == '#' && (s[1] == ' ' || s[1] == '\t'))
			s += 2;
		else
			break;
		depth++;
	}
	if (!diag) {
		if (*s)
			p->r->ignored++;
		return;
	}
	/* A diagnostic, for the open container nearest its depth. */
	if (diag_depth >= p->nr)
		diag_depth = p->nr - 1;
	diag = skip_blanks(diag + 1);
	strbuf_addstr(&p->stack[diag_depth].diag, diag);
	strbuf_addch(&p->stack[diag_depth].diag, '\n');
}

/* A kselftest runner name "selftests: vm: mremap_test" -> "vm/mremap_test". */
static void path_add(struct strbuf *path, const struct ktap_test *t,
		     size_t index)
{
	const char *name = t->name;

	if (path->len)
		strbuf_addch(path, '/');
	if (!name || !*name) {
		strbuf_addf(path, "#%d", t->number ? t->number : (int)index + 1);
		return;
	}
	if (starts_with(name, "selftests: ")) {
		const char *s;

		for (s = name + 11; *s; s++) {
			if (s[0] == ':' && s[1] == ' ') {
				strbuf_addch(path, '/');
				s++;
			} else {
				strbuf_addch(path, *s);
			}
		}
		return;
	}
	strbuf_addstr(path, name);
}

static int status_is_bad(enum ktap_status s)
{
	return s == KTAP_FAIL || s == KTAP_ERROR;
}

struct leaves {
	struct ktap_leaf *v;
	size_t nr, alloc;
};

static void leaf_add(struct leaves *out, const struct strbuf *path,
		     const struct ktap_test *t)
{
	struct ktap_leaf *leaf;

	ALLOC_GROW(out->v, out->nr, out->alloc);
	leaf = &out->v[out->nr++];
	leaf->path = xstrdup(path->buf);
	leaf->status = t->status;
	leaf->test = t;
}

/* Returns whether any leaf under t is bad. */
static int leaves_collect(const struct ktap_test *t, struct strbuf *path,
			  struct leaves *out)
{
	size_t i, len = path->len;
	int bad = 0;

	for (i = 0; i < t->nr_subtests; i++) {
		const struct ktap_test *s = t->subtests[i];

		path_add(path, s, i);
		if (!s->nr_subtests) {
			leaf_add(out, path, s);
			bad |= status_is_bad(s->status);
		} else {
			size_t at = out->nr;
			int below = leaves_collect(s, path, out);

			if (!below && status_is_bad(s->status)) {
				/* Its own line failed: it is the leaf. */
				ALLOC_GROW(out->v, out->nr, out->alloc);
				memmove(out->v + at + 1, out->v + at,
					(out->nr - at) * sizeof(*out->v));
				out->nr++;
				out->v[at].path = xstrdup(path->buf);
				out->v[at].status = s->status;
				out->v[at].test = s;
				below = 1;
			}
			bad |= below;
		}
		strbuf_setlen(path, len);
	}
	return bad;
}

size_t ktap_result_leaves(const struct ktap_result *r,
			  struct ktap_leaf **leaves)
{
	struct leaves out = { NULL, 0, 0 };
	struct strbuf path = STRBUF_INIT;

	leaves_collect(&r->root, &path, &out);
	strbuf_release(&path);
	*leaves = out.v;
	return out.nr;
}

void ktap_leaves_free(struct ktap_leaf *leaves, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(leaves[i].path);
	free(leaves);
}

struct verdict {
	enum ktap_verdict v;
	struct strbuf error_reason, fail_reason;
};

static __attribute__((format(printf, 3, 4)))
void verdict_note(struct verdict *vd, enum ktap_verdict v,
			 const char *fmt, ...)
{
	struct strbuf *sb = v == KTAP_VERDICT_ERROR ? &vd->error_reason :
			    &vd->fail_reason;
	va_list ap;

	if (v > vd->v)
		vd->v = v;
	if (sb->len)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

/*
 * Walks the tree.  A broken subtree (bail-out, plan not met, cut off,
 * missing, ERROR) under a test whose own line says "not ok" is that
 * test's failure, already explained by its runner: FAIL.  Under one
 * its runner skipped ("ok 3 memfd_secret # SKIP" over a program whose
 * own plan was not met), it is part of the skip: nothing.  Anywhere
 * else, and at the top, it is an ERROR of the run.
 */
static void verdict_walk(const struct ktap_test *t, int is_root,
			 int explained, int skipped, struct strbuf *path,
			 struct verdict *vd)
{
	enum ktap_verdict broken;
	const char *where;
	size_t i, len = path->len;

	if (!is_root && t->has_result && t->status == KTAP_FAIL)
		explained = 1;
	if (!is_root && t->has_result && t->status == KTAP_SKIP)
		skipped = 1;
	broken = explained ? KTAP_VERDICT_FAIL : KTAP_VERDICT_ERROR;
	where = path->len ? path->buf : "the top level";

	if (!is_root && t->has_result && t->status == KTAP_FAIL)
		verdict_note(vd, KTAP_VERDICT_FAIL, "%s failed%s%s", where,
			     t->directive_text ? ": " : "",
			     t->directive_text ? t->directive_text : "");
	if (skipped && !explained) {
		/* (its breakage is the skip's; a failure below still counts) */
		for (i = 0; i < t->nr_subtests; i++) {
			path_add(path, t->subtests[i], i);
			verdict_walk(t->subtests[i], 0, 0, 1, path, vd);
			strbuf_setlen(path, len);
		}
		return;
	}
	if (t->bailed_out)
		verdict_note(vd, broken, "bail out in %s%s%s", where,
			     t->bail_reason ? ": " : "",
			     t->bail_reason ? t->bail_reason : "");
	if (t->missing)
		verdict_note(vd, broken, "%s is missing: the run stopped early",
			     where);
	else if (t->cut_off)
		verdict_note(vd, broken, "output ended inside %s", where);
	else if (!is_root && t->status == KTAP_ERROR)
		verdict_note(vd, broken, "%s: ERROR", where);

	for (i = 0; i < t->nr_subtests; i++) {
		path_add(path, t->subtests[i], i);
		verdict_walk(t->subtests[i], 0, explained, skipped, path, vd);
		strbuf_setlen(path, len);
	}

	/* Last: a missing test below says more than the count. */
	if (t->plan_mismatch && !t->missing) {
		size_t results = 0;

		for (i = 0; i < t->nr_subtests; i++)
			results += !t->subtests[i]->missing;
		where = path->len ? path->buf : "the top level";
		verdict_note(vd, broken, "%s planned %d tests, reported %zu",
			     where, t->plan, results);
	}
}

/*
 * A test its plan promised but that never came, under one its runner
 * skipped: skipped too, not an error.
 */
static void skip_missing(struct ktap_test *t, int skipped)
{
	size_t i;

	if (t->has_result && t->status == KTAP_SKIP)
		skipped = 1;
	if (skipped && t->missing)
		t->status = KTAP_SKIP;
	for (i = 0; i < t->nr_subtests; i++)
		skip_missing(t->subtests[i], skipped);
}

static void result_finish(struct ktap_result *r)
{
	struct verdict vd = { KTAP_VERDICT_PASS, STRBUF_INIT, STRBUF_INIT };
	struct strbuf path = STRBUF_INIT;
	struct ktap_leaf *leaves;
	size_t nr, i;

	skip_missing(&r->root, 0);
	nr = ktap_result_leaves(r, &leaves);
	memset(&r->counts, 0, sizeof(r->counts));
	for (i = 0; i < nr; i++) {
		switch (leaves[i].status) {
		case KTAP_PASS:
			r->counts.pass++;
			break;
		case KTAP_FAIL:
			r->counts.fail++;
			break;
		case KTAP_SKIP:
			r->counts.skip++;
			break;
		case KTAP_TODO:
			r->counts.todo++;
			break;
		case KTAP_XFAIL:
			r->counts.xfail++;
			break;
		case KTAP_ERROR:
			r->counts.error++;
			if (leaves[i].test->missing)
				r->counts.missing++;
			break;
		}
	}
	ktap_leaves_free(leaves, nr);

	if (!r->found) {
		verdict_note(&vd, KTAP_VERDICT_ERROR, "no KTAP or TAP output");
	} else {
		if (r->unplanned)
			verdict_note(&vd, KTAP_VERDICT_ERROR,
				     "no test plan (1..N) at the top level");
		verdict_walk(&r->root, 1, 0, 0, &path, &vd);
	}
	strbuf_release(&path);
	r->verdict = vd.v;
	free(r->reason);
	r->reason = NULL;
	if (vd.v == KTAP_VERDICT_ERROR)
		r->reason = strbuf_detach(&vd.error_reason, NULL);
	else if (vd.v == KTAP_VERDICT_FAIL)
		r->reason = strbuf_detach(&vd.fail_reason, NULL);
	strbuf_release(&vd.error_reason);
	strbuf_release(&vd.fail_reason);
}

int ktap_parse(const char *text, size_t len, struct ktap_result *out)
{
	struct parser p = { out, NULL, 0, 0, 0, 0 };
	struct strbuf line = STRBUF_INIT;
	size_t pos = 0;

	ktap_result_init(out);
	level_push(&p, &out->root);
	while (pos < len) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		pos += n + (nl ? 1 : 0);
		out->lines++;
		if (!nl)
			out->partial_line = 1;
		line_clean(&line, s, n);
		line_parse(&p, line.buf);
	}
	document_end(&p);
	out->root.plan = p.planned ? p.plan_total : -1;
	if (!p.planned)
		out->unplanned = 1;
	diag_move(&out->root, &p.stack[0].diag);
	strbuf_release(&p.stack[0].diag);
	free(p.stack);
	strbuf_release(&line);

	result_finish(out);
	if (!out->found)
		return error_code(RESPIN_ENOTFOUND, "no KTAP or TAP output found");
	return 0;
}

static void test_to_json(struct json *j, const struct ktap_test *t,
			 unsigned int flags)
{
	size_t i;

	json_object_begin(j);
	if (t->number)
		json_int_member(j, "number", t->number);
	if (t->name)
		json_string_member(j, "name", t->name);
	json_string_member(j, "status", ktap_status_name(t->status));
	if (t->directive_text)
		json_string_member(j, "directive", t->directive_text);
	if (t->plan >= 0)
		json_int_member(j, "plan", t->plan);
	if (t->missing)
		json_bool_member(j, "missing", 1);
	if (t->cut_off)
		json_bool_member(j, "cut_off", 1);
	if (t->plan_mismatch)
		json_bool_member(j, "plan_mismatch", 1);
	if (t->bailed_out)
		json_string_member(j, "bail_out",
				   t->bail_reason ? t->bail_reason : "");
	if ((flags & KTAP_JSON_DIAGNOSTICS) && t->diagnostic)
		json_string_member(j, "diagnostic", t->diagnostic);
	if (t->nr_subtests) {
		json_key(j, "subtests");
		json_array_begin(j);
		for (i = 0; i < t->nr_subtests; i++)
			test_to_json(j, t->subtests[i], flags);
		json_array_end(j);
	}
	json_object_end(j);
}

void ktap_result_to_json(struct json *j, const struct ktap_result *r,
			 unsigned int flags)
{
	const struct ktap_counts *c = &r->counts;
	size_t i;

	json_object_begin(j);
	json_string_member(j, "verdict", ktap_verdict_name(r->verdict));
	if (r->reason)
		json_string_member(j, "reason", r->reason);
	json_int_member(j, "version", r->version);
	if (r->root.plan >= 0)
		json_int_member(j, "plan", r->root.plan);
	if (r->root.bailed_out)
		json_string_member(j, "bail_out", r->root.bail_reason ?
				   r->root.bail_reason : "");
	json_key(j, "counts");
	json_object_begin(j);
	json_int_member(j, "pass", c->pass);
	json_int_member(j, "fail", c->fail);
	json_int_member(j, "skip", c->skip);
	json_int_member(j, "xfail", c->xfail);
	json_int_member(j, "todo", c->todo);
	json_int_member(j, "error", c->error);
	json_int_member(j, "missing", c->missing);
	json_object_end(j);
	json_int_member(j, "lines", r->lines);
	json_int_member(j, "ignored", r->ignored);

	if (flags & KTAP_JSON_TREE) {
		json_key(j, "tests");
		json_array_begin(j);
		for (i = 0; i < r->root.nr_subtests; i++)
			test_to_json(j, r->root.subtests[i], flags);
		json_array_end(j);
	}
	if (flags & KTAP_JSON_LEAVES) {
		struct ktap_leaf *leaves;
		size_t nr = ktap_result_leaves(r, &leaves);

		json_key(j, "leaves");
		json_array_begin(j);
		for (i = 0; i < nr; i++) {
			json_object_begin(j);
			json_string_member(j, "path", leaves[i].path);
			json_string_member(j, "status",
					   ktap_status_name(leaves[i].status));
			if (leaves[i].test->directive_text)
				json_string_member(j, "directive",
						   leaves[i].test->directive_text);
			json_object_end(j);
		}
		json_array_end(j);
		ktap_leaves_free(leaves, nr);
	}
	json_object_end(j);
}
