// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/kselftest.h"
#include "ci/vmtests.h"
#include "tools/lib/error.h"

#include <stdlib.h>
#include <string.h>

int kselftest_target_valid(const char *name)
{
	const char *p;

	if (!*name || *name == '/' || *name == '.' || strstr(name, ".."))
		return 0;
	for (p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' ||
		      *p == '.' || *p == '/'))
			return 0;
	return p[-1] != '/';
}

const char *kselftest_alias(const char *name)
{
	if (!strcmp(name, "vm"))
		return "mm";
	if (!strcmp(name, "mm"))
		return "vm";
	return NULL;
}

const char *kselftest_resolve(const char *name,
			      int (*has)(const char *dir, void *data),
			      void *data)
{
	const char *alias = kselftest_alias(name);

	if (has(name, data))
		return name;
	if (alias && has(alias, data))
		return alias;
	return NULL;
}

int kselftest_settings_timeout(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	int timeout = KSELFTEST_TIMEOUT;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		if ((size_t)(e - p) > 8 && !strncmp(p, "timeout=", 8)) {
			const char *q = p + 8;
			long n = 0;

			while (q < e && *q >= '0' && *q <= '9' && n < 1000000)
				n = n * 10 + (*q++ - '0');
			while (q < e && (*q == ' ' || *q == '\t' || *q == '\r'))
				q++;
			if (q == e && q > p + 8)
				timeout = (int)n;
		}
		p = e + 1;
	}
	return timeout;
}

/* A line of the runner's KTAP: "KTAP version 1", "TAP version 13". */
static int is_header(const char *l, size_t n)
{
	return (n >= 13 && !strncmp(l, "KTAP version ", 13)) ||
	       (n >= 12 && !strncmp(l, "TAP version ", 12));
}

void kselftest_block(struct strbuf *out, const char *runner_ktap,
		     size_t len, const char *failed)
{
	const char *p = runner_ktap, *end = runner_ktap + len;
	struct strbuf body = STRBUF_INIT;
	int planned = 0, nfailed = 0, have_plan = 0;
	const char *f;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if (is_header(p, n)) {
			;	/* ours replaces it */
		} else if (!have_plan && n > 3 && !strncmp(p, "1..", 3)) {
			planned = atoi(p + 3);
			have_plan = 1;
		} else if (n) {
			strbuf_addstr(&body, "    ");
			strbuf_add(&body, p, n);
			strbuf_addch(&body, '\n');
		}
		p += n + 1;
	}
	for (f = failed; *f; ) {
		const char *nl = strchr(f, '\n');
		size_t n = nl ? (size_t)(nl - f) : strlen(f);

		if (n) {
			nfailed++;
			strbuf_addf(&body, "    not ok %d %.*s # build failed\n",
				    planned + nfailed, (int)n, f);
		}
		f += n + (nl ? 1 : 0);
	}
	strbuf_addstr(out, "    KTAP version 1\n");
	if (!planned && !nfailed && !body.len)
		strbuf_addstr(out, "    1..0 # SKIP no programs\n");
	else
		strbuf_addf(out, "    1..%d\n", planned + nfailed);
	strbuf_add(out, body.buf, body.len);
	strbuf_release(&body);
}

/* ---- changes ---- */

struct keyed {
	char *key;
	enum ktap_status status;
};

static int keyed_cmp(const void *a, const void *b)
{
	return strcmp(((const struct keyed *)a)->key,
		      ((const struct keyed *)b)->key);
}

/* The leaves of text, keyed by path (repeats numbered), sorted. */
static size_t keyed_leaves(const char *text, size_t len, struct keyed **out)
{
	struct ktap_result kr;
	struct ktap_leaf *v = NULL;
	struct keyed *k;
	size_t nr = 0, i, j;

	ktap_result_init(&kr);
	if (ktap_parse(text, len, &kr) < 0)
		error_clear();
	else
		nr = ktap_result_leaves(&kr, &v);
	k = xcalloc(nr + 1, sizeof(*k));
	for (i = 0; i < nr; i++) {
		size_t seen = 0;

		for (j = 0; j < i; j++)
			if (!strcmp(v[j].path, v[i].path))
				seen++;
		if (seen) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "%s #%zu", v[i].path, seen + 1);
			k[i].key = strbuf_detach(&sb, NULL);
		} else {
			k[i].key = xstrdup(v[i].path);
		}
		k[i].status = v[i].status;
	}
	if (nr)
		qsort(k, nr, sizeof(*k), keyed_cmp);
	ktap_leaves_free(v, nr);
	ktap_result_release(&kr);
	*out = k;
	return nr;
}

static void keyed_free(struct keyed *k, size_t nr)
{
	while (nr)
		free(k[--nr].key);
	free(k);
}

static int is_bad(enum ktap_status s)
{
	return s == KTAP_FAIL || s == KTAP_ERROR;
}

void kselftest_changes_release(struct kselftest_changes *c)
{
	warning_set_release(&c->new_tests);
	warning_set_release(&c->gone_tests);
	warning_set_release(&c->broken);
	warning_set_release(&c->fixed);
	warning_set_release(&c->flipped);
}

void kselftest_changes_compute(struct kselftest_changes *c,
			       const char *before, size_t before_len,
			       const char *now, size_t now_len)
{
	struct keyed *a, *b;
	size_t na = keyed_leaves(before, before_len, &a);
	size_t nb = keyed_leaves(now, now_len, &b);
	size_t i = 0, j = 0;

	while (i < na || j < nb) {
		int cmp = i == na ? 1 : j == nb ? -1 :
			  strcmp(a[i].key, b[j].key);

		if (cmp < 0) {
			warning_set_add(&c->gone_tests, a[i++].key);
		} else if (cmp > 0) {
			warning_set_add(&c->new_tests, b[j++].key);
		} else {
			if (a[i].status != b[j].status) {
				if (!is_bad(a[i].status) && is_bad(b[j].status))
					warning_set_add(&c->broken, b[j].key);
				else if (is_bad(a[i].status) &&
					 !is_bad(b[j].status))
					warning_set_add(&c->fixed, b[j].key);
				else
					warning_set_add(&c->flipped, b[j].key);
			}
			i++;
			j++;
		}
	}
	keyed_free(a, na);
	keyed_free(b, nb);
}

void kselftest_changes_text(const struct kselftest_changes *c,
			    struct strbuf *out)
{
	if (c->new_tests.nr)
		strbuf_addf(out, ", %zu new", c->new_tests.nr);
	if (c->gone_tests.nr)
		strbuf_addf(out, ", %zu gone", c->gone_tests.nr);
	if (c->broken.nr)
		strbuf_addf(out, ", %zu broken", c->broken.nr);
	if (c->fixed.nr)
		strbuf_addf(out, ", %zu fixed", c->fixed.nr);
	if (c->flipped.nr)
		strbuf_addf(out, ", %zu flipped", c->flipped.nr);
}

/* ---- the cell ---- */

static void count(const struct ktap_test *t, struct ktap_counts *k)
{
	size_t i;

	if (!t->nr_subtests) {
		switch (t->status) {
		case KTAP_PASS: k->pass++; break;
		case KTAP_FAIL: k->fail++; break;
		case KTAP_SKIP: k->skip++; break;
		case KTAP_TODO: k->todo++; break;
		case KTAP_XFAIL: k->xfail++; break;
		case KTAP_ERROR: k->error++; break;
		}
		return;
	}
	for (i = 0; i < t->nr_subtests; i++)
		count(t->subtests[i], k);
}

void kselftest_cell(const struct ktap_result *kr, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < kr->root.nr_subtests; i++) {
		const struct ktap_test *t = kr->root.subtests[i];
		struct ktap_counts k = { 0 };
		int total, bad;

		if (t->nr_subtests)
			count(t, &k);
		total = k.pass + k.fail + k.skip + k.todo + k.xfail + k.error;
		bad = k.fail + k.error;
		strbuf_addf(out, "%s%s %d/%d", i ? "; " : "",
			    t->name ? t->name : "?", k.pass + k.xfail, total);
		if (k.skip)
			strbuf_addf(out, " (%d skip)", k.skip);
		if (bad)
			strbuf_addf(out, ", %d failed", bad);
		else if (is_bad(t->status))
			strbuf_addstr(out, ", FAIL");
	}
}

/* ---- run_kselftest.sh's output ---- */

/* "selftests: vm: run_vmtests.sh" -> "run_vmtests.sh" (borrowed). */
static const char *runner_name(const char *name, size_t n, size_t *out_n)
{
	const char *colon;

	*out_n = n;
	if (n < 11 || memcmp(name, "selftests: ", 11))
		return name;
	colon = memmem(name + 11, n - 11, ": ", 2);
	if (!colon)
		return name;
	*out_n = n - (size_t)(colon + 2 - name);
	return colon + 2;
}

/* The directive of a result line ("TIMEOUT 450 seconds"), or "". */
static void result_directive(const char *l, size_t n, struct strbuf *out)
{
	const char *hash = NULL;
	size_t k;

	for (k = 1; k < n; k++)
		if (l[k] == '#' && (l[k - 1] == ' ' || l[k - 1] == '\t')) {
			hash = l + k + 1;
			break;
		}
	while (hash && hash < l + n && (*hash == ' ' || *hash == '\t'))
		hash++;
	if (hash)
		strbuf_add(out, hash, (size_t)(l + n - hash));
}

/*
 * One test's lines ("# " and what its program printed), before its
 * result line: 6.1's run_vmtests.sh lines as subtests, else as they
 * were.
 */
static void group_flush(struct strbuf *group, const char *cut,
			struct strbuf *out)
{
	struct strbuf inner = STRBUF_INIT;
	const char *p = group->buf, *end = p + group->len;

	/* one level up: "# x" is x, "#" an empty line */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if (n >= 2 && p[0] == '#' && (p[1] == ' ' || p[1] == '\t'))
			strbuf_add(&inner, p + 2, n - 2);
		else if (n && p[0] == '#')
			strbuf_add(&inner, p + 1, n - 1);
		strbuf_addch(&inner, '\n');
		p += n + 1;
	}
	/*
	 * The runner's "# selftests: vm: NAME" first, where it was and
	 * named as its result line will be: it names the test that a
	 * stopped guest leaves without one.
	 */
	if (inner.len > 11 && !memcmp(inner.buf, "selftests: ", 11)) {
		const char *nl = memchr(inner.buf, '\n', inner.len), *name;
		size_t n = (size_t)(nl - inner.buf), name_n;

		name = runner_name(inner.buf, n, &name_n);
		strbuf_addstr(out, "# selftests: ");
		strbuf_add(out, name, name_n);
		strbuf_addch(out, '\n');
		/* (a line of the inner text goes, the group's stays whole) */
		memmove(inner.buf, nl + 1, inner.len - n - 1);
		strbuf_setlen(&inner, inner.len - n - 1);
		if (!vmtests_ktap(inner.buf, inner.len, "    ", cut, out)) {
			nl = memchr(group->buf, '\n', group->len);
			strbuf_add(out, nl + 1, group->len -
				   (size_t)(nl + 1 - group->buf));
		}
	} else if (!vmtests_ktap(inner.buf, inner.len, "    ", cut, out)) {
		strbuf_add(out, group->buf, group->len);
	}
	strbuf_reset(group);
	strbuf_release(&inner);
}

void kselftest_translate(const char *text, size_t len, const char *stopped,
			 struct strbuf *out)
{
	const char *p = text, *end = text + len;
	struct strbuf group = STRBUF_INIT, directive = STRBUF_INIT;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		int not_ok = n >= 7 && !memcmp(p, "not ok ", 7);

		if (n && p[0] == '#') {
			strbuf_add(&group, p, n);
			strbuf_addch(&group, '\n');
		} else if (not_ok || (n >= 3 && !memcmp(p, "ok ", 3))) {
			const char *q = p + (not_ok ? 7 : 3), *name;
			size_t name_n;

			strbuf_reset(&directive);
			result_directive(p, n, &directive);
			group_flush(&group, directive.buf, out);
			/* "ok N selftests: vm: NAME # ..." -> "ok N NAME # ..." */
			while (q < p + n && *q >= '0' && *q <= '9')
				q++;
			while (q < p + n && *q == ' ')
				q++;
			strbuf_add(out, p, (size_t)(q - p));
			name = runner_name(q, (size_t)(p + n - q), &name_n);
			strbuf_add(out, name, name_n);
			strbuf_addch(out, '\n');
		} else {
			if (group.len)
				group_flush(&group, NULL, out);
			strbuf_add(out, p, n);
			strbuf_addch(out, '\n');
		}
		p += n + 1;
	}
	if (group.len)
		group_flush(&group, stopped, out);
	if (stopped)
		strbuf_addf(out, "Bail out! %s\n", stopped);
	strbuf_release(&group);
	strbuf_release(&directive);
}

/* ---- respin.check.NAME.tests ---- */

void kselftest_test_release(struct kselftest_test *t)
{
	strbuf_release(&t->collection);
	strbuf_release(&t->test);
	strbuf_release(&t->args);
}

static int word_ok(const char *w, size_t n, const char *more)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (!((w[k] >= 'a' && w[k] <= 'z') ||
		      (w[k] >= 'A' && w[k] <= 'Z') ||
		      (w[k] >= '0' && w[k] <= '9') || strchr("_.+-", w[k]) ||
		      (more && strchr(more, w[k]))))
			return 0;
	return n > 0;
}

int kselftest_tests_next(const char **p, struct kselftest_test *t,
			 struct strbuf *err)
{
	struct strbuf word = STRBUF_INIT;
	const char *colon, *before;
	int r = 1;

	strbuf_reset(&t->collection);
	strbuf_reset(&t->test);
	strbuf_reset(&t->args);
	if (!strbuf_next_word(&word, p, " \t")) {
		strbuf_release(&word);
		return 0;
	}
	colon = strchr(word.buf, ':');
	if (!colon) {
		strbuf_addf(err, "'%s' comes before any COLLECTION:TEST (like "
			    "vm:run_vmtests.sh)", word.buf);
		r = -1;
		goto out;
	}
	strbuf_add(&t->collection, word.buf, (size_t)(colon - word.buf));
	strbuf_addstr(&t->test, colon + 1);
	if (!kselftest_target_valid(t->collection.buf) ||
	    !word_ok(t->test.buf, t->test.len, NULL) || t->test.buf[0] == '.') {
		strbuf_addf(err, "'%s' is not COLLECTION:TEST (a directory "
			    "under tools/testing/selftests, a test's file name)",
			    word.buf);
		r = -1;
		goto out;
	}
	/* its arguments: the words up to the next test */
	for (;;) {
		before = *p;
		if (!strbuf_next_word(&word, p, " \t"))
			break;
		if (strchr(word.buf, ':')) {
			*p = before;
			break;
		}
		if (!word_ok(word.buf, word.len, ",=")) {
			strbuf_addf(err, "'%s' (an argument of %s:%s) has "
				    "characters other than letters, digits and "
				    "\"_.+-,=\"", word.buf, t->collection.buf,
				    t->test.buf);
			r = -1;
			goto out;
		}
		if (t->args.len)
			strbuf_addch(&t->args, ' ');
		strbuf_addstr(&t->args, word.buf);
	}
out:
	strbuf_release(&word);
	return r;
}

void kselftest_args_variable(const char *test, struct strbuf *out)
{
	const char *p;

	strbuf_addstr(out, "KSELFTEST_");
	for (p = test; *p; p++) {
		char ch = *p;

		if (ch >= 'a' && ch <= 'z')
			ch = (char)(ch - 'a' + 'A');
		else if (!((ch >= 'A' && ch <= 'Z') ||
			   (ch >= '0' && ch <= '9')))
			ch = '_';
		strbuf_addch(out, ch);
	}
	strbuf_addstr(out, "_ARGS");
}
