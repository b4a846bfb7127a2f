// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KTAP / TAP parser.  Each line is cleaned (serial console noise),
 * then read at a depth: every four spaces, tab or "# " in front of a
 * KTAP construct is one level down.  A stack holds one open container
 * per depth; a result line at depth d closes the container open at
 * d + 1 (its subtests) or adds a leaf at d.  The lines are taken
 * apart in ktap-line.c; what the finished tree says (leaves, counts,
 * verdict, JSON) is ktap-verdict.c's.
 */
#include "ci/ktap-parts.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <stdlib.h>
#include <string.h>

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
			if (ktap_starts_with(last, "selftests: "))
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

static void directive_set(struct ktap_test *t, const struct ktap_line *l)
{
	const char *d = l->directive;

	/* the result line's directive replaces one its plan gave */
	free(t->directive_text);
	t->directive_text = dup_or_null(d, l->directive_len);
	t->directive = KTAP_DIRECTIVE_NONE;
	t->status = l->ok ? KTAP_PASS : KTAP_FAIL;
	if (!d)
		return;
	if (ktap_starts_with_icase(d, "SKIP")) {
		t->directive = KTAP_DIRECTIVE_SKIP;
		t->status = KTAP_SKIP;
	} else if (ktap_starts_with_icase(d, "TODO")) {
		t->directive = KTAP_DIRECTIVE_TODO;
		t->status = KTAP_TODO;
	} else if (ktap_starts_with_icase(d, "XFAIL")) {
		t->directive = KTAP_DIRECTIVE_XFAIL;
		t->status = KTAP_XFAIL;
	} else if (ktap_starts_with_icase(d, "TIMEOUT")) {
		t->directive = KTAP_DIRECTIVE_TIMEOUT;
		t->status = KTAP_FAIL;
	} else if (ktap_starts_with_icase(d, "ERROR")) {
		t->directive = KTAP_DIRECTIVE_ERROR;
		t->status = KTAP_ERROR;
	} else {
		t->directive = KTAP_DIRECTIVE_OTHER;
	}
}

static void result_add(struct parser *p, size_t depth, const struct ktap_line *l)
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

static void line_handle(struct parser *p, size_t depth, const struct ktap_line *l)
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
	struct ktap_line l;

	for (;;) {
		if (ktap_line_classify(s, &l)) {
			line_handle(p, depth, &l);
			return;
		}
		if (*s == '#') {
			diag = s;
			diag_depth = depth;
		}
		if (ktap_starts_with(s, "    "))
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
	diag = ktap_skip_blanks(diag + 1);
	strbuf_addstr(&p->stack[diag_depth].diag, diag);
	strbuf_addch(&p->stack[diag_depth].diag, '\n');
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
		ktap_line_clean(&line, s, n);
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

	ktap_result_finish(out);
	if (!out->found)
		return error_code(RESPIN_ENOTFOUND, "no KTAP or TAP output found");
	return 0;
}

