// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/vmtests.h"

#include <stdlib.h>
#include <string.h>

struct span {
	const char *p;
	size_t n;
};

/* The lines of text, without their newline or a carriage return. */
static size_t split_lines(const char *text, size_t len, struct span **out)
{
	const char *p = text, *end = text + len;
	struct span *v = NULL;
	size_t nr = 0, alloc = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		ALLOC_GROW(v, nr, alloc);
		v[nr].p = p;
		v[nr].n = n && p[n - 1] == '\r' ? n - 1 : n;
		nr++;
		p += n + 1;
	}
	*out = v;
	return nr;
}

static int is_dashes(const struct span *l)
{
	size_t k;

	if (l->n < 3)
		return 0;
	for (k = 0; k < l->n; k++)
		if (l->p[k] != '-')
			return 0;
	return 1;
}

static int is_running(const struct span *l)
{
	return l->n > 8 && !memcmp(l->p, "running ", 8);
}

/* [PASS] 1, [FAIL] 2, [SKIP] 3, else 0. */
static int verdict_of(const struct span *l)
{
	if (l->n != 6)
		return 0;
	if (!memcmp(l->p, "[PASS]", 6))
		return 1;
	if (!memcmp(l->p, "[FAIL]", 6))
		return 2;
	if (!memcmp(l->p, "[SKIP]", 6))
		return 3;
	return 0;
}

void vmtests_name(const char *command, size_t n, struct strbuf *out)
{
	const char *p = command, *end = command + n;
	int first = 1;

	while (p < end) {
		const char *w, *we, *slash;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end)
			break;
		w = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		we = p;
		/* its last part: "./huge/huge_mremap" is huge_mremap */
		for (slash = we; slash > w && slash[-1] != '/'; slash--)
			;
		if (slash == we)
			continue;	/* ("dir/": nothing after it) */
		if (!first)
			strbuf_addch(out, ' ');
		first = 0;
		for (w = slash; w < we; w++)
			strbuf_addch(out, *w == '#' ? '_' : *w);
	}
}

static void diag_line(struct strbuf *out, const char *indent,
		      const struct span *l)
{
	if (!l->n)
		return;
	strbuf_addf(out, "%s# ", indent);
	strbuf_add(out, l->p, l->n);
	strbuf_addch(out, '\n');
}

int vmtests_ktap(const char *text, size_t len, const char *indent,
		 const char *cut, struct strbuf *out)
{
	struct span *l;
	size_t nr = split_lines(text, len, &l), *starts = NULL;
	size_t nstarts = 0, alloc = 0, i, k;
	struct strbuf name = STRBUF_INIT;

	for (i = 1; i < nr; i++)
		if (is_running(&l[i]) && is_dashes(&l[i - 1])) {
			ALLOC_GROW(starts, nstarts, alloc);
			starts[nstarts++] = i;
		}
	if (!nstarts) {
		free(l);
		return 0;
	}
	strbuf_addf(out, "%sKTAP version 1\n%s1..%zu\n", indent, indent,
		    nstarts);
	/* what came before the first test's dashes */
	for (i = 0; i + 1 < starts[0]; i++)
		diag_line(out, indent, &l[i]);
	for (k = 0; k < nstarts; k++) {
		size_t from = starts[k] + 1, to = k + 1 < nstarts ?
			      starts[k + 1] - 1 : nr, result = to;
		int v = 0;

		if (from < to && is_dashes(&l[from]))
			from++;
		/* its line is the last of them: its program may print one */
		for (i = to; i > from; i--)
			if ((v = verdict_of(&l[i - 1]))) {
				result = i - 1;
				break;
			}
		for (i = from; i < result; i++)
			diag_line(out, indent, &l[i]);
		strbuf_reset(&name);
		vmtests_name(l[starts[k]].p + 8, l[starts[k]].n - 8, &name);
		if (!name.len)
			strbuf_addf(&name, "#%zu", k + 1);
		strbuf_addf(out, "%s%sok %zu %s", indent, v == 1 || v == 3 ?
			    "" : "not ", k + 1, name.buf);
		if (v == 3)
			strbuf_addstr(out, " # SKIP");
		else if (!v && k + 1 == nstarts && cut && *cut)
			strbuf_addf(out, " # %s", cut);
		else if (!v)
			strbuf_addstr(out, " # no [PASS], [FAIL] or [SKIP]");
		strbuf_addch(out, '\n');
		for (i = result + 1; i < to; i++)
			diag_line(out, indent, &l[i]);
	}
	strbuf_release(&name);
	free(starts);
	free(l);
	return (int)nstarts;
}
