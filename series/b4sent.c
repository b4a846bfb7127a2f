// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The versions a b4 prep branch sent: its sent/NAME-vN tags, each an
 * annotated tag whose message is the cover letter, with the base the
 * series was sent on and how many patches it had.
 */
#include "series/b4priv.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct tag_name {
	int number;
	char *ref;
};

static int cmp_tag(const void *a, const void *b)
{
	const struct tag_name *x = a, *y = b;

	return x->number - y->number;
}

/* The base-commit: line of a tag message, or NULL. */
static char *tag_base_commit(const char *msg)
{
	const char *p = msg;

	for (;;) {
		const char *nl = strchr(p, '\n');

		if (!strncasecmp(p, "base-commit:", 12)) {
			const char *v = p + 12, *e = nl ? nl : p + strlen(p);

			while (v < e && isspace((unsigned char)*v))
				v++;
			while (e > v && isspace((unsigned char)e[-1]))
				e--;
			return e > v ? xstrndup(v, (size_t)(e - v)) : NULL;
		}
		if (!nl)
			return NULL;
		p = nl + 1;
	}
}

/*
 * The commit count first-parent steps below tip, or NULL (no error)
 * when a merge or the root comes first; errors when commits are missing.
 */
static int walk_back(git_repository *repo, git_commit *tip, int count,
		     const char *name, git_commit **out)
{
	git_commit *c = NULL, *next;
	int i;

	*out = NULL;
	if (git_commit_dup(&c, tip) < 0)
		return error_git("cannot read commit");
	for (i = 0; i < count; i++) {
		if (git_commit_parentcount(c) != 1) {
			git_commit_free(c);
			return 0;
		}
		if (git_commit_parent(&next, c, 0) < 0) {
			error_git("the commits of sent tag '%s' cannot be "
				  "found: the parent of %s is missing", name,
				  oid_short(git_commit_id(c), 12));
			git_commit_free(c);
			return RESPIN_ERR;
		}
		git_commit_free(c);
		c = next;
	}
	*out = c;
	return 0;
}

/* The tag object (annotated) and the commit it points at. */
static int sent_tag_open(git_repository *repo, const char *ref,
			 const char *name, git_object **obj,
			 git_object **peeled)
{
	git_reference *r = NULL;
	int bad = git_reference_lookup(&r, repo, ref) < 0 ||
		  !git_reference_target(r) ||
		  git_object_lookup(obj, repo, git_reference_target(r),
				    GIT_OBJECT_ANY) < 0 ||
		  git_object_peel(peeled, *obj, GIT_OBJECT_COMMIT) < 0;

	git_reference_free(r);
	if (bad) {
		error_git("the commits of sent tag '%s' cannot be found", name);
		error_hint("the repository lacks objects the tag points at; "
			   "fetch them, or delete the tag if it is stale");
		return RESPIN_ERR;
	}
	if (git_object_type(*obj) != GIT_OBJECT_TAG) {
		error("sent tag '%s' is not an annotated tag with b4's cover "
		      "letter, so its base is unknown", name);
		error_hint("b4 send makes annotated tags; recreate this one "
			   "with 'b4 send --resend' or delete it");
		return RESPIN_ERR;
	}
	return 0;
}

/* The commit base_hex names, when it is one the tip descends from. */
static int named_base(git_repository *repo, const char *name,
		      const char *base_hex, const git_oid *tip,
		      git_commit **base)
{
	size_t n = base_hex ? strlen(base_hex) : 0;
	git_oid oid;
	int r;

	if (!base_hex || n < 7 || n > GIT_OID_HEXSZ ||
	    strspn(base_hex, "0123456789abcdefABCDEF") != n ||
	    git_oid_fromstrn(&oid, base_hex, n) ||
	    git_commit_lookup_prefix(base, repo, &oid, n)) {
		git_error_clear();
		return 0;
	}
	r = git_graph_descendant_of(repo, tip, git_commit_id(*base));
	git_error_clear();
	if (r <= 0)
		return error("the commits of sent tag '%s' cannot be found: "
			     "%s does not descend from its base-commit %s",
			     name, oid_short(tip, 12), base_hex);
	return 0;
}

/*
 * The base a sent tag's series is on: b4's "base-commit:" line,
 * checked against the count of patches its shortlog gives.  With the
 * branch-description cover strategy b4 0.12 writes the parent of the
 * fork point there (and a literal "SHA~1" when that is a root commit):
 * the count wins.
 */
static int sent_tag_base(git_repository *repo, const char *name,
			 const char *msg, git_commit *tip, git_commit **base)
{
	char *base_hex = tag_base_commit(msg);
	git_commit *fork = NULL;
	int count = b4_tag_patch_count(msg);
	int r = named_base(repo, name, base_hex, git_commit_id(tip), base);

	if (!r && count > 0)
		r = walk_back(repo, tip, count, name, &fork);
	if (fork && *base && !git_oid_equal(git_commit_id(fork),
					    git_commit_id(*base)) &&
	    git_graph_descendant_of(repo, git_commit_id(fork),
				    git_commit_id(*base)) != 1) {
		git_error_clear();
		git_commit_free(fork);
		fork = NULL;
	}
	if (fork) {
		git_commit_free(*base);
		*base = fork;
	}
	if (!r && !*base) {
		if (!base_hex)
			r = error("sent tag '%s' names no base-commit in its "
				  "message", name);
		else
			r = error("the commits of sent tag '%s' cannot be "
				  "found: its base-commit %s is not in this "
				  "repository", name, base_hex);
		error_hint("fetch the base it was sent on (b4 writes "
			   "'base-commit: SHA' into the tag) and run this "
			   "again");
	}
	free(base_hex);
	return r;
}

static int read_sent_tag(git_repository *repo, struct b4_branch *b,
			 const struct tag_name *t,
			 struct json_object *history)
{
	const char *name = t->ref + strlen("refs/tags/");
	git_object *obj = NULL, *peeled = NULL;
	git_commit *base = NULL;
	struct b4_version *bv;
	struct strbuf src = STRBUF_INIT, cover = STRBUF_INIT;
	const char *msg;
	int r;

	r = sent_tag_open(repo, t->ref, name, &obj, &peeled);
	if (r < 0)
		goto out;
	msg = git_tag_message((git_tag *)obj);
	r = sent_tag_base(repo, name, msg, (git_commit *)peeled, &base);
	if (r < 0)
		goto out;
	bv = b4_add_version(b, t->number, name);
	bv->sent = 1;
	r = b4_collect(repo, git_commit_id(base), git_object_id(peeled),
		       oid_short(git_commit_id(base), 12), name, &bv->v);
	if (!r && !bv->v.nr_patches)
		r = error("sent tag '%s' holds no patches above its "
			  "base-commit %s",
			  name, oid_short(git_commit_id(base), 12));
	if (r < 0)
		goto out;
	b4_cover_from_tag(msg, &cover);
	if (cover.len)
		bv->cover = strbuf_detach(&cover, NULL);
	bv->message_id = b4_history_msgid(history, t->number);
	b4_derive_patch_msgids(bv);
	strbuf_addf(&src, "b4 %s (%s)", name,
		    oid_short(git_object_id(peeled), 12));
	bv->v.source = strbuf_detach(&src, NULL);
	if (bv->message_id)
		bv->v.message_id = xstrdup(bv->message_id);
out:
	strbuf_release(&cover);
	git_commit_free(base);
	git_object_free(peeled);
	git_object_free(obj);
	return r;
}

int b4_read_sent_tags(git_repository *repo, struct b4_branch *b,
		       struct json_object *history)
{
	const char *short_name = b->branch;
	struct strbuf prefix = STRBUF_INIT;
	git_reference_iterator *it = NULL;
	struct tag_name *tags = NULL;
	size_t nr = 0, alloc = 0, i;
	const char *refname;
	int r;

	if (!strncmp(short_name, "b4/", 3))
		short_name += 3;
	strbuf_addf(&prefix, "refs/tags/sent/%s-v", short_name);
	if (git_reference_iterator_glob_new(&it, repo, "refs/tags/sent/*") < 0) {
		r = error_git("cannot list the sent/ tags");
		goto out;
	}
	while (!(r = git_reference_next_name(&refname, it))) {
		const char *num = refname + prefix.len;
		size_t n;

		if (strncmp(refname, prefix.buf, prefix.len))
			continue;
		n = strlen(num);
		if (!n || n > 5 || strspn(num, "0123456789") != n || *num == '0')
			continue;
		ALLOC_GROW(tags, nr, alloc);
		tags[nr].number = atoi(num);
		tags[nr].ref = xstrdup(refname);
		nr++;
	}
	if (r != GIT_ITEROVER) {
		r = error_git("cannot list the sent/ tags");
		goto out;
	}
	r = 0;
	if (nr)
		qsort(tags, nr, sizeof(*tags), cmp_tag);
	for (i = 0; i < nr && !r; i++)
		r = read_sent_tag(repo, b, &tags[i], history);
out:
	for (i = 0; i < nr; i++)
		free(tags[i].ref);
	free(tags);
	git_reference_iterator_free(it);
	strbuf_release(&prefix);
	return r;
}
