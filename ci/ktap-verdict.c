// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a parsed KTAP tree says (ktap.h): its status names, its leaves
 * by path, the counts and the verdict with its reason (ktap-parts.h's
 * ktap_result_finish(), the parser's last step), and its JSON form.
 */
#include "ci/ktap-parts.h"
#include "tools/lib/json.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
	if (!strncmp(name, "selftests: ", 11)) {
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

void ktap_result_finish(struct ktap_result *r)
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
