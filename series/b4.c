// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/b4priv.h"
#include "series/range.h"
#include "tools/lib/error.h"
#include "tools/lib/jsonread.h"
#include "tools/lib/repo.h"

#include <ctype.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* How far back from the tip to look for b4's cover commit. */
#define COVER_SEARCH_LIMIT 1000

/* ---- text helpers ---- */

/* The start of the line that is exactly LINE in text, or NULL. */
static const char *find_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;

	while ((p = strstr(p, line))) {
		if ((p == text || p[-1] == '\n') &&
		    (p[n] == '\n' || p[n] == '\0' ||
		     (p[n] == '\r' && p[n + 1] == '\n')))
			return p;
		p += n;
	}
	return NULL;
}

static void trim_into(struct strbuf *out, const char *p, size_t len)
{
	while (len && isspace((unsigned char)*p)) {
		p++;
		len--;
	}
	while (len && isspace((unsigned char)p[len - 1]))
		len--;
	if (!len)
		return;
	strbuf_add(out, p, len);
	strbuf_addch(out, '\n');
}

void b4_cover_clean(const char *text, size_t len, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = text, *end = text + len;
	size_t blank = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		/* b4 empties comment lines, then squeezes blank runs */
		if (n && *p == '#')
			n = 0;
		if (!n) {
			if (blank++ < 1)
				strbuf_addch(&sb, '\n');
		} else {
			blank = 0;
			strbuf_add(&sb, p, n);
			strbuf_addch(&sb, '\n');
		}
		p = nl ? nl + 1 : end;
	}
	trim_into(out, sb.buf, sb.len);
	strbuf_release(&sb);
}

/* A line of a "---" section that only a sent cover letter's tail has. */
static int is_tail_section(const char *p, size_t len)
{
	const char *end = p + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *q = p, *qe = p + n;

		if ((n >= 12 && !strncasecmp(p, "base-commit:", 12)) ||
		    (n >= 10 && !strncasecmp(p, "change-id:", 10)))
			return 1;
		/* the diffstat summary: " 3 files changed, ..." */
		while (q < qe && *q == ' ')
			q++;
		if (q < qe && isdigit((unsigned char)*q)) {
			while (q < qe && isdigit((unsigned char)*q))
				q++;
			if ((size_t)(qe - q) >= 13 &&
			    (!strncmp(q, " file changed", 13) ||
			     !strncmp(q, " files changed", 14)))
				return 1;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

void b4_cover_from_tag(const char *msg, struct strbuf *out)
{
	const char *p = msg, *keep_end = msg;

	/* sections start after lines that are exactly "---" */
	for (;;) {
		const char *sep = find_line(p, "---");
		const char *sec_end = sep ? sep : p + strlen(p);

		if (is_tail_section(p, (size_t)(sec_end - p)))
			break;
		keep_end = sec_end;
		if (!sep)
			break;
		p = sep + 3;
		if (*p == '\r')
			p++;
		if (*p == '\n')
			p++;
	}
	trim_into(out, msg, (size_t)(keep_end - msg));
}

int b4_tag_patch_count(const char *msg)
{
	const char *p = msg;
	int count = 0;

	/* the first tail section: "Author (N):" lines of the shortlog */
	for (;;) {
		const char *sep = find_line(p, "---");
		const char *end = sep ? sep : p + strlen(p);

		if (is_tail_section(p, (size_t)(end - p))) {
			while (p < end) {
				const char *nl = memchr(p, '\n',
							(size_t)(end - p));
				const char *e = nl ? nl : end, *q;

				if (e - p > 4 && !isspace((unsigned char)*p) &&
				    e[-1] == ':' && e[-2] == ')') {
					q = e - 3;
					while (q > p && isdigit((unsigned char)*q))
						q--;
					if (*q == '(' && q < e - 3 && q[-1] == ' ')
						count += atoi(q + 1);
				}
				p = nl ? nl + 1 : end;
			}
			return count;
		}
		if (!sep)
			return 0;
		p = sep + 3;
		if (*p == '\n')
			p++;
	}
}

/* A Message-ID as b4 stores it: printable, no spaces; <> dropped. */
static char *clean_msgid(const char *s)
{
	size_t n = strlen(s), i;

	if (n >= 2 && s[0] == '<' && s[n - 1] == '>') {
		s++;
		n -= 2;
	}
	if (!n)
		return NULL;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f ||
		    s[i] == '<' || s[i] == '>')
			return NULL;
	return xstrndup(s, n);
}

/* ---- the tracking JSON ---- */

static int bad_tracking(struct b4_branch *b, const char *what)
{
	error("branch '%s': b4's tracking data (%s) is malformed: %s",
	      b->branch, b->tracking_in, what);
	error_hint("respin reads the JSON that 'b4 prep' keeps after '"
		   B4_MARKER "'; see whether b4 can still read it with "
		   "'b4 prep --show-info' on that branch");
	return RESPIN_ERR;
}

/*
 * Whether object o has member key, into *m (borrowed; a JSON null is
 * NULL, as json-c gives it).
 */
static int has_member(struct json_object *o, const char *key,
		      struct json_object **m)
{
	*m = NULL;
	return json_object_is_type(o, json_type_object) &&
	       json_object_object_get_ex(o, key, m);
}

/* The member key of o, or NULL when it is missing or null. */
static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *m;

	return has_member(o, key, &m) ? m : NULL;
}

/* Each member of history is a list of Message-IDs (strings). */
static int check_history(struct b4_branch *b, struct json_object *history)
{
	struct json_object_iterator it = json_object_iter_begin(history);
	struct json_object_iterator end = json_object_iter_end(history);

	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		struct json_object *l = json_object_iter_peek_value(&it);
		size_t k;

		if (!json_object_is_type(l, json_type_array))
			return bad_tracking(b, "a \"history\" entry is not "
					    "a list of Message-IDs");
		for (k = 0; k < json_object_array_length(l); k++)
			if (!json_object_is_type(json_object_array_get_idx(l, k),
						 json_type_string))
				return bad_tracking(b, "a \"history\" entry "
						    "holds a non-string");
	}
	return 0;
}

static int parse_tracking(struct b4_branch *b, const char *text, size_t len,
			  struct json_object **root,
			  struct json_object **history)
{
	struct json_object *s, *m;
	const char *cid;
	int64_t rev;
	size_t i;

	if (json_read(text, len, root) < 0) {
		char *why = xstrdup(error_last());

		error_clear();
		bad_tracking(b, why);
		free(why);
		return RESPIN_ERR;
	}
	s = member(*root, "series");
	if (!json_object_is_type(s, json_type_object))
		return bad_tracking(b, "it has no \"series\" object");
	m = member(s, "revision");
	rev = json_object_get_int64(m);
	if (!json_object_is_type(m, json_type_int) || rev < 1 || rev > 100000)
		return bad_tracking(b, "\"revision\" is not a number >= 1");
	b->revision = (int)rev;
	cid = json_read_string(s, "change-id");
	if (!cid || !*cid)
		return bad_tracking(b, "\"change-id\" is missing or not a string");
	for (i = 0; cid[i]; i++)
		if ((unsigned char)cid[i] <= ' ' || cid[i] == 0x7f)
			return bad_tracking(b, "\"change-id\" holds spaces or "
					    "control characters");
	b->change_id = xstrdup(cid);
	if (has_member(s, "base-branch", &m) && m) {
		const char *bb = json_read_string(s, "base-branch");

		if (!bb)
			return bad_tracking(b, "\"base-branch\" is not a string");
		if (*bb)
			b->base_branch = xstrdup(bb);
	}
	if (!has_member(s, "history", history))
		return 0;
	if (!json_object_is_type(*history, json_type_object))
		return bad_tracking(b, "\"history\" is not an object");
	return check_history(b, *history);
}

/* The last Message-ID b4 recorded for vN, or NULL. */
char *b4_history_msgid(struct json_object *history, int n)
{
	char key[32];
	struct json_object *l;
	size_t k;

	snprintf(key, sizeof(key), "v%d", n);
	l = member(history, key);
	if (!json_object_is_type(l, json_type_array))
		return NULL;
	for (k = json_object_array_length(l); k > 0; k--) {
		struct json_object *e = json_object_array_get_idx(l, k - 1);
		const char *str = json_object_get_string(e);

		if (json_object_is_type(e, json_type_string) &&
		    strlen(str) == (size_t)json_object_get_string_len(e))
			return clean_msgid(str);
	}
	return NULL;
}

/*
 * b4 numbers a series' messages <stable-vN-K-random@domain>, K = 0 for
 * the cover letter: with the cover's ID known, so are the patches'.
 */
void b4_derive_patch_msgids(struct b4_version *bv)
{
	struct series_version *v = &bv->v;
	char tag[32];
	const char *hit;
	size_t i;

	if (!bv->message_id)
		return;
	if (v->nr_patches == 1) {
		snprintf(tag, sizeof(tag), "-v%d-1-", bv->number);
		if (strstr(bv->message_id, tag))
			v->patches[0].message_id = xstrdup(bv->message_id);
		return;
	}
	snprintf(tag, sizeof(tag), "-v%d-0-", bv->number);
	hit = strstr(bv->message_id, tag);
	if (!hit || strstr(hit + 1, tag))
		return;
	for (i = 0; i < v->nr_patches; i++) {
		struct strbuf id = STRBUF_INIT;
		size_t pre = (size_t)(hit - bv->message_id) + strlen(tag) - 2;

		strbuf_add(&id, bv->message_id, pre);
		strbuf_addf(&id, "%zu%s", i + 1, hit + strlen(tag) - 1);
		v->patches[i].message_id = strbuf_detach(&id, NULL);
	}
}

/* ---- commits ---- */

static int has_marker(git_repository *repo, const git_oid *oid, int *yes)
{
	git_commit *c = NULL;

	if (git_commit_lookup(&c, repo, oid) < 0)
		return error_git("cannot read commit %s", oid_short(oid, 12));
	*yes = find_line(git_commit_message(c), B4_MARKER) != NULL;
	git_commit_free(c);
	return 0;
}

/* Drops b4's cover commit(s) from a collected range. */
static int drop_cover_commits(git_repository *repo, struct series_version *v)
{
	size_t i, j = 0;

	for (i = 0; i < v->nr_patches; i++) {
		int yes, r = has_marker(repo, &v->patches[i].commit, &yes);

		if (r < 0)
			return r;
		if (yes) {
			free(v->patches[i].subject);
			free(v->patches[i].message_id);
			strbuf_release(&v->patches[i].extra);
			continue;
		}
		v->patches[j++] = v->patches[i];
	}
	v->nr_patches = j;
	return 0;
}

/* Collects base..tip into a fresh version, without b4's cover commit. */
int b4_collect(git_repository *repo, const git_oid *base, const git_oid *tip,
	       const char *base_name, const char *tip_name,
	       struct series_version *v)
{
	git_commit *bc = NULL, *tc = NULL;
	int r;

	if (git_commit_lookup(&bc, repo, base) < 0 ||
	    git_commit_lookup(&tc, repo, tip) < 0) {
		r = error_git("cannot read %s..%s", base_name, tip_name);
		goto out;
	}
	r = series_range_collect(repo, bc, tc, base_name, tip_name, v);
	if (!r)
		r = drop_cover_commits(repo, v);
out:
	git_commit_free(bc);
	git_commit_free(tc);
	return r;
}

struct b4_version *b4_add_version(struct b4_branch *b, int number,
				  const char *where)
{
	struct b4_version *bv;

	ALLOC_GROW(b->versions, b->nr_versions, b->alloc_versions);
	bv = &b->versions[b->nr_versions++];
	memset(bv, 0, sizeof(*bv));
	bv->number = number;
	bv->where = xstrdup(where);
	strbuf_init(&bv->v.extra, 0);
	bv->v.number = number;
	return bv;
}

/* ---- the branch ---- */

static int find_branch(git_repository *repo, const char *name,
		       git_reference **out)
{
	struct strbuf full = STRBUF_INIT;
	int r;

	if (!strncmp(name, "refs/heads/", 11))
		strbuf_addstr(&full, name);
	else
		strbuf_addf(&full, "refs/heads/%s", name);
	r = git_reference_lookup(out, repo, full.buf);
	if (r == GIT_ENOTFOUND && strncmp(name, "refs/", 5) &&
	    strncmp(name, "b4/", 3)) {
		strbuf_reset(&full);
		strbuf_addf(&full, "refs/heads/b4/%s", name);
		r = git_reference_lookup(out, repo, full.buf);
	}
	strbuf_release(&full);
	if (r == GIT_ENOTFOUND || r == GIT_EINVALIDSPEC) {
		git_error_clear();
		error_code(RESPIN_ENOTFOUND, "no branch '%s'%s", name,
			   strncmp(name, "refs/", 5) && strncmp(name, "b4/", 3) ?
			   " (nor 'b4/...' of that name)" : "");
		error_hint("b4 prep makes branches named b4/NAME; 'git branch "
			   "--list \"b4/*\"' lists them");
		return RESPIN_ENOTFOUND;
	}
	if (r < 0)
		return error_git("cannot read branch '%s'", name);
	return 0;
}

/* The newest commit within reach of tip that holds b4's marker. */
static int find_cover_commit(git_repository *repo, const git_oid *tip,
			     git_oid *out, int *found)
{
	git_revwalk *walk = NULL;
	git_oid oid;
	int r, seen = 0, yes = 0;

	*found = 0;
	if (git_revwalk_new(&walk, repo) < 0 ||
	    git_revwalk_sorting(walk, GIT_SORT_TIME) < 0 ||
	    git_revwalk_push(walk, tip) < 0) {
		r = error_git("cannot walk the branch");
		goto out;
	}
	while (seen++ < COVER_SEARCH_LIMIT &&
	       !(r = git_revwalk_next(&oid, walk))) {
		if (has_marker(repo, &oid, &yes) < 0) {
			r = RESPIN_ERR;
			goto out;
		}
		if (yes) {
			git_oid_cpy(out, &oid);
			*found = 1;
			break;
		}
	}
	r = 0;
out:
	git_revwalk_free(walk);
	return r;
}

static char *branch_config(git_repository *repo, const char *branch,
			   const char *key)
{
	struct strbuf k = STRBUF_INIT;
	char *v;

	strbuf_addf(&k, "branch.%s.%s", branch, key);
	v = repo_config_string(repo, k.buf, NULL);
	strbuf_release(&k);
	return v;
}

/* Where the branch's patches start when b4 keeps no first cover commit. */
static int fork_point(git_repository *repo, struct b4_branch *b,
		      const git_oid *tip, git_oid *out)
{
	git_reference *ref = NULL;
	git_object *obj = NULL;
	int r;

	if (!b->base_ref) {
		error("branch '%s' keeps its cover letter %s, so its patches "
		      "start where it leaves its base branch%s%s%s, which is "
		      "not in this repository", b->branch,
		      strcmp(b->strategy, "tip-commit") ? "in its description" :
		      "in its last commit", b->base_branch ? " '" : "",
		      b->base_branch ? b->base_branch : "", b->base_branch ?
		      "'" : "");
		error_hint("create or fetch the base branch b4 recorded "
			   "(see 'b4 prep --show-info'), then run this again");
		return RESPIN_ERR;
	}
	if (git_reference_lookup(&ref, repo, b->base_ref) < 0 ||
	    git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT) < 0) {
		r = error_git("cannot read %s", b->base_ref);
		goto out;
	}
	r = git_merge_base(out, repo, git_object_id(obj), tip);
	if (r < 0) {
		git_error_clear();
		r = error("branch '%s' shares no history with its base branch "
			  "%s", b->branch, repo_ref_short(b->base_ref));
	}
out:
	git_object_free(obj);
	git_reference_free(ref);
	return r;
}

static int read_current(git_repository *repo, struct b4_branch *b,
			const git_oid *tip, const git_oid *cover_commit,
			const char *cover_text, size_t cover_len,
			struct json_object *history)
{
	git_commit *c = NULL;
	git_oid base, start, end;
	struct series_version nv;
	struct b4_version *bv;
	struct strbuf sb = STRBUF_INIT;
	int r;

	/*
	 * Where the cover commit is decides, not the strategy's name: b4
	 * 0.12 makes the cover commit of a new "tip-commit" branch first.
	 */
	if (!strcmp(b->strategy, "commit") && git_oid_equal(cover_commit, tip)) {
		b->branch_empty = 1;	/* nothing above the cover commit */
		return 0;
	}
	if (strcmp(b->strategy, "branch-description") &&
	    !git_oid_equal(cover_commit, tip)) {
		/* the cover commit is the first: patches above it */
		if (git_commit_lookup(&c, repo, cover_commit) < 0)
			return error_git("cannot read b4's cover commit");
		if (git_commit_parentcount(c) != 1) {
			git_commit_free(c);
			return error("b4's cover commit %s of branch '%s' has "
				     "no single parent, so its base is unknown",
				     oid_short(cover_commit, 12), b->branch);
		}
		git_oid_cpy(&base, git_commit_parent_id(c, 0));
		git_commit_free(c);
		git_oid_cpy(&start, cover_commit);
		git_oid_cpy(&end, tip);
	} else if (strcmp(b->strategy, "branch-description")) {
		/* the cover commit is the last: patches below it */
		if (git_commit_lookup(&c, repo, cover_commit) < 0)
			return error_git("cannot read b4's cover commit");
		if (git_commit_parentcount(c) != 1) {
			git_commit_free(c);
			return error("b4's cover commit %s of branch '%s' has "
				     "no single parent",
				     oid_short(cover_commit, 12), b->branch);
		}
		git_oid_cpy(&end, git_commit_parent_id(c, 0));
		git_commit_free(c);
		r = fork_point(repo, b, &end, &base);
		if (r < 0)
			return r;
		git_oid_cpy(&start, &base);
	} else {
		git_oid_cpy(&end, tip);
		r = fork_point(repo, b, &end, &base);
		if (r < 0)
			return r;
		git_oid_cpy(&start, &base);
	}
	if (git_oid_equal(&start, &end)) {
		b->branch_empty = 1;
		return 0;
	}
	memset(&nv, 0, sizeof(nv));
	strbuf_init(&nv.extra, 0);
	r = b4_collect(repo, &start, &end, oid_short(&start, 12), b->branch,
		    &nv);
	if (r < 0 || !nv.nr_patches) {
		series_version_release(&nv);
		b->branch_empty = !r;
		return r;
	}
	bv = b4_add_version(b, b->revision, b->branch);
	strbuf_release(&bv->v.extra);
	bv->v = nv;
	bv->v.number = b->revision;
	git_oid_cpy(&bv->v.base, &base);
	b4_cover_clean(cover_text, cover_len, &sb);
	if (sb.len)
		bv->cover = strbuf_detach(&sb, NULL);
	/* a revision b4 has a Message-ID for was sent from here already */
	bv->message_id = b4_history_msgid(history, b->revision);
	b4_derive_patch_msgids(bv);
	if (bv->message_id)
		bv->v.message_id = xstrdup(bv->message_id);
	strbuf_addf(&sb, "b4 branch %s (%s)", b->branch, oid_short(tip, 12));
	bv->v.source = strbuf_detach(&sb, NULL);
	return 0;
}

/* The cover strategy, as b4 decides it: the branch's own, else b4's. */
static int read_strategy(git_repository *repo, struct b4_branch *b)
{
	b->strategy = branch_config(repo, b->branch, "b4-prep-cover-strategy");
	if (!b->strategy)
		b->strategy = repo_config_string(repo, "b4.prep-cover-strategy",
						 "commit");
	if (b->strategy && strcmp(b->strategy, "commit") &&
	    strcmp(b->strategy, "tip-commit") &&
	    strcmp(b->strategy, "branch-description"))
		return error("branch '%s' uses b4 cover strategy '%s', which "
			     "respin does not know", b->branch, b->strategy);
	return 0;
}

/* What b4 keeps: the tracking JSON and the cover text it comes with. */
struct b4_tracking {
	git_commit *cover;		/* the cover commit, or NULL */
	git_oid cover_oid;		/* zero without one */
	char *desc, *config;		/* branch-description strategy */
	const char *cover_text;		/* borrowed from one of those */
	size_t cover_len;
	struct json_object *root, *history;
};

static void tracking_release(struct b4_tracking *t)
{
	git_commit_free(t->cover);
	free(t->desc);
	free(t->config);
	json_object_put(t->root);
}

/* The tracking data from the cover commit's message, after the marker. */
static int tracking_from_commit(git_repository *repo, struct b4_branch *b,
				struct b4_tracking *t)
{
	struct strbuf where = STRBUF_INIT;
	const char *msg, *mark, *json_text;

	if (git_commit_lookup(&t->cover, repo, &t->cover_oid) < 0)
		return error_git("cannot read b4's cover commit");
	strbuf_addf(&where, "in cover commit %s", oid_short(&t->cover_oid, 12));
	b->tracking_in = strbuf_detach(&where, NULL);
	msg = git_commit_message(t->cover);
	mark = find_line(msg, B4_MARKER);
	t->cover_text = msg;
	t->cover_len = (size_t)(mark - msg);
	json_text = strchr(mark, '{');
	if (!json_text)
		return bad_tracking(b, "no JSON object follows the marker line");
	return parse_tracking(b, json_text, strlen(json_text), &t->root,
			      &t->history);
}

/*
 * The tracking data from branch.NAME.b4-tracking, the cover letter from
 * the branch's description.
 */
static int tracking_from_config(git_repository *repo, struct b4_branch *b,
				struct b4_tracking *t)
{
	struct strbuf where = STRBUF_INIT;

	t->config = branch_config(repo, b->branch, "b4-tracking");
	if (!t->config) {
		error("branch '%s' is not a b4 prep branch: no commit in its "
		      "last %d holds '" B4_MARKER "', and it has no "
		      "branch.%s.b4-tracking", b->branch, COVER_SEARCH_LIMIT,
		      b->branch);
		error_hint("give the branch 'b4 prep' made (b4/NAME), or record "
			   "a plain branch with 'respin track NAME --base REF "
			   "--tip BRANCH'");
		return RESPIN_ERR;
	}
	free(b->strategy);
	b->strategy = xstrdup("branch-description");
	strbuf_addf(&where, "branch.%s.b4-tracking", b->branch);
	b->tracking_in = strbuf_detach(&where, NULL);
	t->desc = branch_config(repo, b->branch, "description");
	if (t->desc) {
		t->cover_text = t->desc;
		t->cover_len = strlen(t->desc);
	}
	return parse_tracking(b, t->config, strlen(t->config), &t->root,
			      &t->history);
}

/* Right after a send, the branch holds the sent version again. */
static int mark_same_as_sent(git_repository *repo, struct b4_branch *b)
{
	struct b4_version *cur = &b->versions[b->nr_versions - 1];
	size_t i;
	int same = 0, r = 0;

	if (cur->sent)
		return 0;
	for (i = b->nr_versions - 1; i > 0 && !same && !r; i--) {
		r = series_version_same_patches(repo, &b->versions[i - 1].v,
						&cur->v, &same);
		if (!r && same)
			cur->same_as = b->versions[i - 1].number;
	}
	return r;
}

int b4_branch_read(git_repository *repo, const char *name,
		   struct b4_branch *b)
{
	git_reference *ref = NULL;
	git_object *tipobj = NULL;
	struct b4_tracking t = { 0 };
	git_oid tip;
	int r, found = 0;

	memset(b, 0, sizeof(*b));
	r = find_branch(repo, name, &ref);
	if (r < 0)
		return r;
	b->branch = xstrdup(git_reference_shorthand(ref));
	if (git_reference_peel(&tipobj, ref, GIT_OBJECT_COMMIT) < 0) {
		r = error_git("cannot read branch '%s'", b->branch);
		goto out;
	}
	git_oid_cpy(&tip, git_object_id(tipobj));
	t.cover_text = "";
	r = read_strategy(repo, b);
	if (!r && strcmp(b->strategy, "branch-description"))
		r = find_cover_commit(repo, &tip, &t.cover_oid, &found);
	if (!r)
		r = found ? tracking_from_commit(repo, b, &t) :
		    tracking_from_config(repo, b, &t);
	if (r < 0)
		goto out;
	if (b->base_branch) {
		git_reference *bref = NULL;

		if (!git_reference_dwim(&bref, repo, b->base_branch))
			b->base_ref = xstrdup(git_reference_name(bref));
		git_reference_free(bref);
		git_error_clear();
	}
	r = b4_read_sent_tags(repo, b, t.history);
	if (!r)
		r = read_current(repo, b, &tip, &t.cover_oid, t.cover_text,
				 t.cover_len, t.history);
	if (!r && b->nr_versions)
		r = mark_same_as_sent(repo, b);
out:
	tracking_release(&t);
	git_object_free(tipobj);
	git_reference_free(ref);
	return r;
}

void b4_branch_release(struct b4_branch *b)
{
	size_t i;

	for (i = 0; i < b->nr_versions; i++) {
		series_version_release(&b->versions[i].v);
		free(b->versions[i].where);
		free(b->versions[i].cover);
		free(b->versions[i].message_id);
	}
	free(b->versions);
	free(b->branch);
	free(b->strategy);
	free(b->tracking_in);
	free(b->change_id);
	free(b->base_branch);
	free(b->base_ref);
	memset(b, 0, sizeof(*b));
}
