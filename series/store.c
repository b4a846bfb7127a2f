// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The series store in git: loading a series from its ref, the
 * summaries "respin list" reads, a version's texts, and saving by
 * compare-and-swap.  The text formats are series/storetext.c's.
 */
#include "series/store.h"
#include "series/storetext.h"
#include "tools/lib/error.h"
#include "tools/lib/objtx.h"
#include "tools/lib/lock.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* ---- reading ---- */

static int read_blob(git_repository *repo, git_tree *tree, const char *path,
		     struct strbuf *out)
{
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	int r;

	if (git_tree_entry_bypath(&e, tree, path) < 0)
		return error("series metadata has no '%s'", path);
	r = git_blob_lookup(&blob, repo, git_tree_entry_id(e));
	git_tree_entry_free(e);
	if (r < 0)
		return error_git("cannot read series metadata '%s'", path);
	strbuf_add(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	return 0;
}

int series_version_ensure(git_repository *repo, struct series *s,
			  struct series_version *v)
{
	struct strbuf buf = STRBUF_INIT, path = STRBUF_INIT;
	int r;

	if (v->loaded)
		return 0;
	strbuf_addf(&path, "v%d/meta", v->number);
	r = read_blob(repo, s->tree, path.buf, &buf);
	if (!r)
		r = series_version_parse_meta(v, buf.buf, buf.len);
	if (r < 0)
		r = error("series '%s' v%d: %s", s->name, v->number,
			  error_last());
	strbuf_release(&buf);
	strbuf_release(&path);
	return r;
}

int series_load(git_repository *repo, const char *name, struct series *s,
		unsigned flags)
{
	struct strbuf ref = STRBUF_INIT, buf = STRBUF_INIT;
	git_commit *commit = NULL;
	size_t i, n;
	int r;

	series_init(s, name);
	if (series_name_check(name) < 0)
		return RESPIN_EUSAGE;
	strbuf_addf(&ref, SERIES_REF_PREFIX "%s", name);
	r = git_reference_name_to_id(&s->meta, repo, ref.buf);
	if (r == GIT_ENOTFOUND) {
		r = error_code(RESPIN_ENOTFOUND, "no series named '%s'", name);
		error_hint("'respin list' shows the series; 'respin track %s "
			   "--base REF' starts one", name);
		goto out;
	}
	if (r < 0) {
		r = error_git("cannot read %s", ref.buf);
		goto out;
	}
	if (git_commit_lookup(&commit, repo, &s->meta) < 0 ||
	    git_commit_tree(&s->tree, commit) < 0) {
		r = error_git("cannot read series '%s' (%s)", name, ref.buf);
		goto out;
	}
	s->updated = git_commit_time(commit);
	r = read_blob(repo, s->tree, "series", &buf);
	if (r < 0)
		goto out;
	r = series_text_parse(s, buf.buf, buf.len);
	if (r < 0)
		goto out;

	n = git_tree_entrycount(s->tree);
	for (i = 0; i < n; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(s->tree, i);
		const char *en = git_tree_entry_name(e);
		int num;

		if (git_tree_entry_type(e) != GIT_OBJECT_TREE || en[0] != 'v')
			continue;
		num = series_version_parse(en);
		if (num > 0)
			series_version_add(s, num);
	}
	for (i = 0; i < s->nr_versions; i++) {
		if ((flags & SERIES_LOAD_LATEST) && i + 1 < s->nr_versions)
			continue;
		r = series_version_ensure(repo, s, &s->versions[i]);
		if (r < 0)
			goto out;
	}
	r = 0;
out:
	git_commit_free(commit);
	strbuf_release(&ref);
	strbuf_release(&buf);
	return r;
}

struct name_list {
	char **names;
	size_t nr, alloc;
};

static int collect_name(const char *refname, void *data)
{
	struct name_list *l = data;

	ALLOC_GROW(l->names, l->nr, l->alloc);
	l->names[l->nr++] = xstrdup(refname + strlen(SERIES_REF_PREFIX));
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void series_summaries_free(struct series_summary *l, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(l[i].name);
		free(l[i].base_ref);
		free(l[i].change_id);
	}
	free(l);
}

static int cmp_summary(const void *a, const void *b)
{
	return strcmp(((const struct series_summary *)a)->name,
		      ((const struct series_summary *)b)->name);
}

int series_summaries(git_repository *repo, struct series_summary **out,
		     size_t *nr)
{
	git_reference_iterator *it;
	git_reference *ref;
	struct series_summary *l = NULL;
	size_t n = 0, alloc = 0, i;
	int r;

	*out = NULL;
	*nr = 0;
	if (git_reference_iterator_glob_new(&it, repo,
					    SERIES_REF_PREFIX "*") < 0)
		return error_git("cannot list %s", SERIES_REF_PREFIX);
	while (!(r = git_reference_next(&ref, it))) {
		const git_oid *target = git_reference_target(ref);

		if (target) {
			ALLOC_GROW(l, n, alloc);
			memset(&l[n], 0, sizeof(l[n]));
			l[n].name = xstrdup(git_reference_name(ref) +
					    strlen(SERIES_REF_PREFIX));
			l[n].patches = (size_t)-1;	/* not said */
			git_oid_cpy(&l[n].meta, target);
			n++;
		}
		git_reference_free(ref);
	}
	git_reference_iterator_free(it);
	if (r != GIT_ITEROVER) {
		series_summaries_free(l, n);
		return error_git("cannot list %s", SERIES_REF_PREFIX);
	}
	if (n)	/* qsort(NULL, 0, ...) is undefined */
		qsort(l, n, sizeof(*l), cmp_summary);
	for (i = 0; i < n; i++) {
		git_commit *c = NULL;
		const char *msg;

		if (git_commit_lookup(&c, repo, &l[i].meta) < 0) {
			series_summaries_free(l, n);
			return error_git("cannot read series '%s'", l[i].name);
		}
		l[i].updated = git_commit_time(c);
		msg = git_commit_message(c);
		series_summary_parse(&l[i], msg, strlen(msg));
		git_commit_free(c);
	}
	*out = l;
	*nr = n;
	return 0;
}

int series_foreach_name(git_repository *repo,
			int (*fn)(const char *name, void *data), void *data)
{
	struct name_list l = { 0 };
	size_t i;
	int r;

	git_reference_iterator *it;
	const char *refname;

	if (git_reference_iterator_glob_new(&it, repo,
					    SERIES_REF_PREFIX "*") < 0)
		return error_git("cannot list %s", SERIES_REF_PREFIX);
	while (!(r = git_reference_next_name(&refname, it)))
		collect_name(refname, &l);
	git_reference_iterator_free(it);
	if (r != GIT_ITEROVER) {
		r = error_git("cannot list %s", SERIES_REF_PREFIX);
		goto out;
	}
	r = 0;
	if (l.nr)
		qsort(l.names, l.nr, sizeof(*l.names), cmp_str);
	for (i = 0; i < l.nr && !r; i++)
		r = fn(l.names[i], data);
out:
	for (i = 0; i < l.nr; i++)
		free(l.names[i]);
	free(l.names);
	return r;
}

/* ---- writing ---- */

static int insert_blob(git_repository *repo, git_treebuilder *tb,
		       const char *name, const struct strbuf *content)
{
	git_oid oid;

	/* a big patch's mail streamed, not held twice more (objtx.h) */
	if (objtx_write_blob(repo, content->buf, content->len, &oid) < 0)
		return RESPIN_ERR;
	if (git_treebuilder_insert(NULL, tb, name, &oid,
				   GIT_FILEMODE_BLOB) < 0)
		return error_git("cannot write series metadata '%s'", name);
	return 0;
}

static int write_version_tree(git_repository *repo, git_tree *old_top,
			      git_treebuilder *top,
			      const struct series_version *v)
{
	git_treebuilder *tb = NULL;
	git_tree_entry *old = NULL;
	git_tree *old_tree = NULL;
	struct strbuf buf = STRBUF_INIT, name = STRBUF_INIT;
	git_oid oid;
	size_t i;
	int r = -1;

	strbuf_addf(&name, "v%d", v->number);
	/* keep what the version's folder holds already (attachments) */
	if (old_top && !git_tree_entry_bypath(&old, old_top, name.buf) &&
	    git_tree_entry_type(old) == GIT_OBJECT_TREE &&
	    git_tree_lookup(&old_tree, repo, git_tree_entry_id(old)) < 0) {
		error_git("cannot read series metadata '%s'", name.buf);
		goto out;
	}
	if (git_treebuilder_new(&tb, repo, old_tree) < 0) {
		error_git("cannot build a tree");
		goto out;
	}
	series_version_format(v, &buf);
	r = insert_blob(repo, tb, "meta", &buf);
	for (i = 0; !r && i < v->nr_attach; i++)
		r = insert_blob(repo, tb, v->attach[i].name, &v->attach[i].text);
	if (r < 0)
		goto out;
	r = RESPIN_ERR;
	if (git_treebuilder_write(&oid, tb) < 0 ||
	    git_treebuilder_insert(NULL, top, name.buf, &oid,
				   GIT_FILEMODE_TREE) < 0) {
		error_git("cannot write series metadata '%s'", name.buf);
		goto out;
	}
	r = 0;
out:
	git_treebuilder_free(tb);
	git_tree_entry_free(old);
	git_tree_free(old_tree);
	strbuf_release(&buf);
	strbuf_release(&name);
	return r;
}

/*
 * Where version v's attachment NAME is: one not written yet (its index
 * in v->attach, *e left NULL), or an entry of the series' tree (*e,
 * the caller's to free).  RESPIN_ENOTFOUND when there is none.
 */
static int attachment_find(const struct series *s,
			   const struct series_version *v, const char *name,
			   size_t *at, git_tree_entry **e)
{
	struct strbuf path = STRBUF_INIT;
	int r;

	*e = NULL;
	for (*at = 0; *at < v->nr_attach; (*at)++)
		if (!strcmp(v->attach[*at].name, name))
			return 0;
	if (!s->tree)
		return RESPIN_ENOTFOUND;
	strbuf_addf(&path, "v%d/%s", v->number, name);
	r = git_tree_entry_bypath(e, s->tree, path.buf);
	strbuf_release(&path);
	if (r < 0) {
		git_error_clear();
		return RESPIN_ENOTFOUND;
	}
	return 0;
}

int series_version_attachment(git_repository *repo, const struct series *s,
			      const struct series_version *v,
			      const char *name, struct strbuf *out)
{
	git_tree_entry *e;
	git_blob *blob = NULL;
	size_t at;
	int r = attachment_find(s, v, name, &at, &e);

	if (r < 0)
		return r;
	if (!e) {
		strbuf_add(out, v->attach[at].text.buf, v->attach[at].text.len);
		return 0;
	}
	r = git_blob_lookup(&blob, repo, git_tree_entry_id(e));
	git_tree_entry_free(e);
	if (r < 0)
		return error_git("cannot read v%d/%s of series '%s'",
				 v->number, name, s->name);
	strbuf_add(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	return 0;
}

int series_version_attachment_size(git_repository *repo,
				   const struct series *s,
				   const struct series_version *v,
				   const char *name, size_t *size)
{
	git_tree_entry *e;
	git_odb *odb = NULL;
	git_object_t type;
	size_t at, len;
	int r = attachment_find(s, v, name, &at, &e);

	if (r < 0)
		return r;
	if (!e) {
		*size = v->attach[at].text.len;
		return 0;
	}
	/* the header alone: the blob itself is not read */
	r = git_repository_odb(&odb, repo);
	if (!r)
		r = git_odb_read_header(&len, &type, odb,
					git_tree_entry_id(e));
	git_odb_free(odb);
	git_tree_entry_free(e);
	if (r < 0)
		return error_git("cannot read v%d/%s of series '%s'",
				 v->number, name, s->name);
	*size = len;
	return 0;
}

static const char *const text_names[] = {
	[SERIES_TEXT_COVER] = "cover",
	[SERIES_TEXT_GIVEN] = "given-trailers",
	[SERIES_TEXT_OFFERED] = "recipients-offered",
	[SERIES_TEXT_SENT] = "sent",
	[SERIES_TEXT_DONE] = "review-done",
	[SERIES_TEXT_REPLIED] = "replied",
};

void series_version_set_text(struct series_version *v, enum series_text what,
			     const char *text, size_t len)
{
	series_version_attach(v, text_names[what], text, len);
}

int series_version_text(git_repository *repo, const struct series *s,
			const struct series_version *v, enum series_text what,
			struct strbuf *out)
{
	return series_version_attachment(repo, s, v, text_names[what], out);
}

static void mail_name(struct strbuf *name, size_t n)
{
	strbuf_addf(name, "mail-%04zu", n);
}

void series_version_set_mail(struct series_version *v, size_t n,
			     const char *text, size_t len)
{
	struct strbuf name = STRBUF_INIT;

	mail_name(&name, n);
	series_version_attach(v, name.buf, text, len);
	strbuf_release(&name);
}

void series_version_take_mail(struct series_version *v, size_t n,
			      struct strbuf *text)
{
	struct strbuf name = STRBUF_INIT;

	mail_name(&name, n);
	series_version_attach_take(v, name.buf, text);
	strbuf_release(&name);
}

int series_version_mail_size(git_repository *repo, const struct series *s,
			     const struct series_version *v, size_t n,
			     size_t *size)
{
	struct strbuf name = STRBUF_INIT;
	int r;

	mail_name(&name, n);
	r = series_version_attachment_size(repo, s, v, name.buf, size);
	strbuf_release(&name);
	return r;
}

int series_version_mail(git_repository *repo, const struct series *s,
			const struct series_version *v, size_t n,
			struct strbuf *out)
{
	struct strbuf name = STRBUF_INIT;
	int r;

	mail_name(&name, n);
	r = series_version_attachment(repo, s, v, name.buf, out);
	strbuf_release(&name);
	return r;
}

int series_save(git_repository *repo, struct series *s,
		const git_oid *keep_reachable, const char *message)
{
	return series_save_many(repo, s, keep_reachable,
				keep_reachable ? 1 : 0, message);
}

/* The metadata tree of s: its "series" blob and each loaded version. */
static int write_series_tree(git_repository *repo, const struct series *s,
			     git_tree **out)
{
	git_treebuilder *tb = NULL;
	struct strbuf buf = STRBUF_INIT;
	git_oid oid;
	size_t i;
	int r = RESPIN_ERR;

	*out = NULL;
	if (git_treebuilder_new(&tb, repo, s->tree) < 0) {
		error_git("cannot build a tree");
		goto out;
	}
	series_text_format(s, &buf);
	r = insert_blob(repo, tb, "series", &buf);
	for (i = 0; !r && i < s->nr_versions; i++)
		/* versions not loaded are unchanged: keep their trees */
		if (s->versions[i].loaded)
			r = write_version_tree(repo, s->tree, tb,
					       &s->versions[i]);
	if (r < 0)
		goto out;
	if (git_treebuilder_write(&oid, tb) < 0 ||
	    git_tree_lookup(out, repo, &oid) < 0)
		r = error_git("cannot write the series tree");
out:
	git_treebuilder_free(tb);
	strbuf_release(&buf);
	return r;
}

/*
 * Moves the ref of s from s->meta (nothing, for a new series) to
 * commit, by compare-and-swap under the ref's lock, creation too: a
 * zero "current" means "must not exist yet".  (libgit2's create with
 * force=0 looks for the ref before it takes the lock, so two at once
 * could both create it and one would be lost.)
 */
static int ref_swap(git_repository *repo, const struct series *s,
		    const git_oid *commit, const char *message)
{
	git_reference *ref = NULL;
	struct strbuf refname = STRBUF_INIT;
	int i, r = 0;

	strbuf_addf(&refname, SERIES_REF_PREFIX "%s", s->name);
	for (i = 0; i < 100; i++) {
		r = git_reference_create_matching(&ref, repo, refname.buf,
						  commit, 1, &s->meta, message);
		/* another writer holds the ref's lock for a moment */
		if (r != GIT_ELOCKED)
			break;
		usleep(10000);
	}
	git_reference_free(ref);
	if (r >= 0) {
		r = 0;
	} else if ((r == GIT_EEXISTS || r == GIT_EMODIFIED) &&
		   git_oid_is_zero(&s->meta)) {
		r = error("series '%s' was created by someone else while "
			  "respin worked; nothing was recorded", s->name);
		error_hint("'respin show %s' shows it; run the command again "
			   "to add to it", s->name);
	} else if (r == GIT_EEXISTS || r == GIT_EMODIFIED) {
		r = error("series '%s' was changed by someone else while "
			  "respin worked; nothing was recorded, try again",
			  s->name);
	} else if (r == GIT_ELOCKED) {
		struct strbuf what = STRBUF_INIT;

		strbuf_addf(&what, "cannot update %s (series '%s')",
			    refname.buf, s->name);
		r = lock_error_git(what.buf, NULL);
		strbuf_release(&what);
	} else {
		r = error_git("cannot update %s", refname.buf);
	}
	strbuf_release(&refname);
	return r;
}

int series_save_many(git_repository *repo, struct series *s,
		     const git_oid *keep, size_t nkeep, const char *message)
{
	git_signature *sig = NULL;
	git_commit **parents = xcalloc(nkeep + 1, sizeof(*parents));
	git_tree *tree = NULL;
	struct strbuf buf = STRBUF_INIT;
	git_oid commit_oid;
	size_t nparents = 0, i;
	int r;

	r = write_series_tree(repo, s, &tree);
	if (!r)
		r = repo_signature(repo, &sig);
	if (!r && !git_oid_is_zero(&s->meta)) {
		if (git_commit_lookup(&parents[nparents], repo, &s->meta) < 0)
			r = error_git("cannot read series '%s'", s->name);
		else
			nparents++;
	}
	for (i = 0; !r && i < nkeep; i++) {
		if (git_oid_is_zero(&keep[i]))
			continue;
		if (git_commit_lookup(&parents[nparents], repo, &keep[i]) < 0)
			r = error_git("cannot read commit %s",
				      oid_short(&keep[i], 12));
		else
			nparents++;
	}
	if (r < 0)
		goto out;
	/* the summary "respin list" reads without opening the tree */
	series_summary_format(s, message, &buf);
	if (git_commit_create(&commit_oid, repo, NULL, sig, sig, NULL, buf.buf,
			      tree, nparents,
			      (const git_commit **)parents) < 0) {
		r = error_git("cannot write the series commit");
		goto out;
	}
	/* what this command wrote, out of git gc's reach (objtx.h) */
	r = objtx_checkpoint(repo);
	if (!r)
		r = ref_swap(repo, s, &commit_oid, message);
	if (r < 0)
		goto out;
	git_oid_cpy(&s->meta, &commit_oid);
	git_tree_free(s->tree);
	s->tree = tree;
	tree = NULL;
out:
	for (i = 0; i < nparents; i++)
		git_commit_free(parents[i]);
	free(parents);
	git_tree_free(tree);
	git_signature_free(sig);
	strbuf_release(&buf);
	return r;
}

int series_load_spec(git_repository *repo, const char *spec,
		     struct series *s, struct series_version **v)
{
	char *name;
	int number, r;

	*v = NULL;
	r = series_spec_parse(spec, &name, &number);
	if (r < 0) {
		series_init(s, spec);
		return r;
	}
	r = series_load(repo, name, s, SERIES_LOAD_ALL);
	free(name);
	if (r < 0)
		return r;
	return series_version_get(s, number, v);
}
