// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/store.h"
#include "tools/lib/error.h"
#include "tools/lib/lock.h"
#include "tools/lib/repo.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int series_name_check(const char *name)
{
	size_t i, n = strlen(name);

	if (!n)
		return error_code(RESPIN_EUSAGE, "a series needs a name");
	if (n > 100)
		return error_code(RESPIN_EUSAGE,
				  "series name '%.40s...' is longer than 100 "
				  "characters", name);
	if (!isalnum((unsigned char)name[0]))
		goto bad;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '-' &&
		    name[i] != '_' && name[i] != '.')
			goto bad;
	if (strstr(name, "..") || (n >= 5 && !strcmp(name + n - 5, ".lock")))
		goto bad;
	return 0;
bad:
	return error_code(RESPIN_EUSAGE, "'%s' is not a valid series name: use "
			  "letters, digits, '-', '_' and '.', starting with a "
			  "letter or digit", name);
}

void series_init(struct series *s, const char *name)
{
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name ? name : "");
	strbuf_init(&s->extra, 0);
}

void series_version_release(struct series_version *v)
{
	size_t i;

	for (i = 0; i < v->nr_patches; i++) {
		free(v->patches[i].subject);
		free(v->patches[i].message_id);
		free(v->patches[i].author);
		strbuf_release(&v->patches[i].extra);
	}
	free(v->patches);
	for (i = 0; i < v->nr_attach; i++) {
		free(v->attach[i].name);
		strbuf_release(&v->attach[i].text);
	}
	free(v->attach);
	free(v->base_ref);
	free(v->source);
	free(v->message_id);
	free(v->subject_prefix);
	free(v->sent_base);
	free(v->sent_prereqs);
	strbuf_release(&v->extra);
	memset(v, 0, sizeof(*v));
}

void series_release(struct series *s)
{
	size_t i;

	for (i = 0; i < s->nr_versions; i++)
		series_version_release(&s->versions[i]);
	free(s->versions);
	free(s->name);
	free(s->change_id);
	free(s->base_ref);
	strbuf_release(&s->extra);
	git_tree_free(s->tree);
	memset(s, 0, sizeof(*s));
}

struct series_version *series_latest(struct series *s)
{
	return s->nr_versions ? &s->versions[s->nr_versions - 1] : NULL;
}

struct series_version *series_version_find(struct series *s, int number)
{
	size_t i;

	for (i = 0; i < s->nr_versions; i++)
		if (s->versions[i].number == number)
			return &s->versions[i];
	return NULL;
}

struct series_version *series_version_add(struct series *s, int number)
{
	size_t i;
	struct series_version *v;

	ALLOC_GROW(s->versions, s->nr_versions, s->alloc_versions);
	for (i = s->nr_versions; i > 0 && s->versions[i - 1].number > number; i--)
		;
	memmove(&s->versions[i + 1], &s->versions[i],
		(s->nr_versions - i) * sizeof(*v));
	s->nr_versions++;
	v = &s->versions[i];
	memset(v, 0, sizeof(*v));
	strbuf_init(&v->extra, 0);
	v->number = number;
	return v;
}

struct series_patch *series_version_add_patch(struct series_version *v)
{
	struct series_patch *p;

	ALLOC_GROW(v->patches, v->nr_patches, v->alloc_patches);
	p = &v->patches[v->nr_patches++];
	memset(p, 0, sizeof(*p));
	strbuf_init(&p->extra, 0);
	return p;
}

int series_version_mail_only(const struct series_version *v)
{
	size_t i;

	for (i = 0; i < v->nr_patches; i++)
		if (git_oid_is_zero(&v->patches[i].commit))
			return 1;
	return 0;
}

void series_version_attach(struct series_version *v, const char *name,
			   const char *text, size_t len)
{
	struct series_attachment *a = NULL;
	size_t i;

	for (i = 0; i < v->nr_attach; i++)
		if (!strcmp(v->attach[i].name, name))
			a = &v->attach[i];
	if (!a) {
		ALLOC_GROW(v->attach, v->nr_attach, v->alloc_attach);
		a = &v->attach[v->nr_attach++];
		a->name = xstrdup(name);
		strbuf_init(&a->text, len);
	}
	strbuf_reset(&a->text);
	strbuf_add(&a->text, text, len);
}

/* ---- text formats ---- */

static void add_line(struct strbuf *out, const char *key, const char *val)
{
	strbuf_addf(out, "%s %s\n", key, val);
}

static void add_oid_line(struct strbuf *out, const char *key,
			 const git_oid *oid)
{
	strbuf_addf(out, "%s %s\n", key, oid_short(oid, GIT_OID_HEXSZ));
}

/* Newlines would break the line format: fold them into spaces. */
static char *one_line(const char *s)
{
	char *r = xstrdup(s ? s : ""), *p;

	for (p = r; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	return r;
}

/* One "prerequisite-patch-id ID" line an id of the list. */
static void add_prereqs(struct strbuf *out, const char *ids)
{
	while (ids && *ids) {
		int n = (int)strcspn(ids, "\r\n");

		if (n)
			strbuf_addf(out, "prerequisite-patch-id %.*s\n", n,
				    ids);
		ids += n;
		ids += strspn(ids, "\r\n");
	}
}

void series_version_format(const struct series_version *v, struct strbuf *out)
{
	size_t i;
	char *s;

	strbuf_addf(out, "version %d\n", v->number);
	if (!git_oid_is_zero(&v->base))
		add_oid_line(out, "base", &v->base);
	if (!git_oid_is_zero(&v->tip))
		add_oid_line(out, "tip", &v->tip);
	if (v->base_ref) {
		s = one_line(v->base_ref);
		add_line(out, "base-ref", s);
		free(s);
	}
	strbuf_addf(out, "recorded %lld\n", (long long)v->recorded);
	if (v->source) {
		s = one_line(v->source);
		add_line(out, "source", s);
		free(s);
	}
	if (v->message_id) {
		s = one_line(v->message_id);
		add_line(out, "message-id", s);
		free(s);
	}
	if (v->subject_prefix) {
		s = one_line(v->subject_prefix);
		add_line(out, "subject-prefix", s);
		free(s);
	}
	if (v->sent_base) {
		s = one_line(v->sent_base);
		add_line(out, "sent-base", s);
		free(s);
	}
	add_prereqs(out, v->sent_prereqs);
	strbuf_add(out, v->extra.buf, v->extra.len);
	for (i = 0; i < v->nr_patches; i++) {
		const struct series_patch *p = &v->patches[i];

		s = one_line(p->subject);
		strbuf_addf(out, "patch %s", oid_short(&p->commit, GIT_OID_HEXSZ));
		strbuf_addf(out, " %s %s\n",
			    oid_short(&p->patch_id, GIT_OID_HEXSZ), s);
		free(s);
		if (p->message_id) {
			s = one_line(p->message_id);
			add_line(out, " message-id", s);
			free(s);
		}
		if (p->author) {
			s = one_line(p->author);
			add_line(out, " author", s);
			free(s);
		}
		strbuf_add(out, p->extra.buf, p->extra.len);
	}
}

/* Splits "key value" lines; calls fn(key, keylen, value, data). */
static int each_line(const char *buf, size_t len,
		     int (*fn)(const char *key, size_t klen, const char *val,
			       size_t vlen, const char *line, size_t llen,
			       void *data),
		     void *data)
{
	const char *end = buf + len;

	while (buf < end) {
		const char *nl = memchr(buf, '\n', (size_t)(end - buf));
		const char *le = nl ? nl : end;
		const char *sp = memchr(buf, ' ', (size_t)(le - buf));
		const char *val = sp ? sp + 1 : le;
		size_t klen = (size_t)((sp ? sp : le) - buf);

		if (le > buf &&
		    fn(buf, klen, val, (size_t)(le - val), buf,
		       (size_t)(le - buf), data) < 0)
			return -1;
		buf = nl ? nl + 1 : end;
	}
	return 0;
}

static int key_is(const char *key, size_t klen, const char *want)
{
	return strlen(want) == klen && !memcmp(key, want, klen);
}

static int parse_oid(git_oid *out, const char *s, size_t len)
{
	char hex[GIT_OID_HEXSZ + 1];

	if (len < GIT_OID_HEXSZ)
		return -1;
	memcpy(hex, s, GIT_OID_HEXSZ);
	hex[GIT_OID_HEXSZ] = '\0';
	return git_oid_fromstr(out, hex);
}

static int version_line(const char *key, size_t klen, const char *val,
			size_t vlen, const char *line, size_t llen, void *data)
{
	struct series_version *v = data;

	if (klen == 0 && *line == ' ') {
		/* " key value": belongs to the patch above */
		struct series_patch *p;
		const char *k = line + 1, *sp;
		size_t kl;

		if (!v->nr_patches)
			return error("a patch attribute before any patch in "
				     "version metadata");
		p = &v->patches[v->nr_patches - 1];
		sp = memchr(k, ' ', llen - 1);
		kl = sp ? (size_t)(sp - k) : llen - 1;
		val = sp ? sp + 1 : line + llen;
		vlen = (size_t)(line + llen - val);
		if (key_is(k, kl, "message-id")) {
			free(p->message_id);
			p->message_id = xstrndup(val, vlen);
		} else if (key_is(k, kl, "author")) {
			free(p->author);
			p->author = xstrndup(val, vlen);
		} else {
			strbuf_add(&p->extra, line, llen);
			strbuf_addch(&p->extra, '\n');
		}
		return 0;
	}
	if (key_is(key, klen, "version")) {
		v->number = atoi(val);
	} else if (key_is(key, klen, "base")) {
		if (parse_oid(&v->base, val, vlen) < 0)
			return error("bad base line in version metadata");
	} else if (key_is(key, klen, "tip")) {
		if (parse_oid(&v->tip, val, vlen) < 0)
			return error("bad tip line in version metadata");
	} else if (key_is(key, klen, "base-ref")) {
		free(v->base_ref);
		v->base_ref = xstrndup(val, vlen);
	} else if (key_is(key, klen, "recorded")) {
		v->recorded = strtoll(val, NULL, 10);
	} else if (key_is(key, klen, "source")) {
		free(v->source);
		v->source = xstrndup(val, vlen);
	} else if (key_is(key, klen, "message-id")) {
		free(v->message_id);
		v->message_id = xstrndup(val, vlen);
	} else if (key_is(key, klen, "subject-prefix")) {
		free(v->subject_prefix);
		v->subject_prefix = xstrndup(val, vlen);
	} else if (key_is(key, klen, "sent-base")) {
		free(v->sent_base);
		v->sent_base = xstrndup(val, vlen);
	} else if (key_is(key, klen, "prerequisite-patch-id")) {
		struct strbuf ids = STRBUF_INIT;

		if (v->sent_prereqs)
			strbuf_addstr(&ids, v->sent_prereqs);
		strbuf_add(&ids, val, vlen);
		strbuf_addch(&ids, '\n');
		free(v->sent_prereqs);
		v->sent_prereqs = strbuf_detach(&ids, NULL);
	} else if (key_is(key, klen, "patch")) {
		struct series_patch *p = series_version_add_patch(v);

		if (vlen < 2 * GIT_OID_HEXSZ + 1 ||
		    parse_oid(&p->commit, val, vlen) < 0 ||
		    parse_oid(&p->patch_id, val + GIT_OID_HEXSZ + 1,
			      vlen - GIT_OID_HEXSZ - 1) < 0)
			return error("bad patch line in version metadata");
		if (vlen > 2 * GIT_OID_HEXSZ + 2)
			p->subject = xstrndup(val + 2 * GIT_OID_HEXSZ + 2,
					      vlen - 2 * GIT_OID_HEXSZ - 2);
		else
			p->subject = xstrdup("");
	} else {
		strbuf_add(&v->extra, line, llen);
		strbuf_addch(&v->extra, '\n');
	}
	return 0;
}

int series_version_parse_meta(struct series_version *v, const char *buf,
			      size_t len)
{
	int number = v->number;

	if (each_line(buf, len, version_line, v) < 0)
		return -1;
	if (number && v->number != number)
		return error("version metadata says v%d where v%d was expected",
			     v->number, number);
	v->loaded = 1;
	return 0;
}

static void series_format(const struct series *s, struct strbuf *out)
{
	add_line(out, "name", s->name);
	if (s->change_id)
		add_line(out, "change-id", s->change_id);
	if (s->base_ref)
		add_line(out, "base-ref", s->base_ref);
	strbuf_addf(out, "created %lld\n", (long long)s->created);
	strbuf_add(out, s->extra.buf, s->extra.len);
}

static int series_line(const char *key, size_t klen, const char *val,
		       size_t vlen, const char *line, size_t llen, void *data)
{
	struct series *s = data;

	if (key_is(key, klen, "name")) {
		free(s->name);
		s->name = xstrndup(val, vlen);
	} else if (key_is(key, klen, "change-id")) {
		free(s->change_id);
		s->change_id = xstrndup(val, vlen);
	} else if (key_is(key, klen, "base-ref")) {
		free(s->base_ref);
		s->base_ref = xstrndup(val, vlen);
	} else if (key_is(key, klen, "created")) {
		s->created = strtoll(val, NULL, 10);
	} else {
		strbuf_add(&s->extra, line, llen);
		strbuf_addch(&s->extra, '\n');
	}
	return 0;
}

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
	each_line(buf.buf, buf.len, series_line, s);

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

static int summary_line(const char *key, size_t klen, const char *val,
			size_t vlen, const char *line, size_t llen, void *data)
{
	struct series_summary *sm = data;

	if (key_is(key, klen, "Latest:"))
		sm->latest = atoi(val);
	else if (key_is(key, klen, "Versions:"))
		sm->versions = atoi(val);
	else if (key_is(key, klen, "Patches:"))
		sm->patches = (size_t)strtoul(val, NULL, 10);
	else if (key_is(key, klen, "Base-Ref:"))
		sm->base_ref = xstrndup(val, vlen);
	else if (key_is(key, klen, "Change-Id:"))
		sm->change_id = xstrndup(val, vlen);
	else if (key_is(key, klen, "Rebased-From:"))
		sm->rebased_from = atoi(val);
	return 0;
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
		each_line(msg, strlen(msg), summary_line, &l[i]);
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

	if (git_blob_create_from_buffer(&oid, repo, content->buf,
					content->len) < 0 ||
	    git_treebuilder_insert(NULL, tb, name, &oid,
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
	if (insert_blob(repo, tb, "meta", &buf) < 0)
		goto out;
	for (i = 0; i < v->nr_attach; i++)
		if (insert_blob(repo, tb, v->attach[i].name,
				&v->attach[i].text) < 0)
			goto out;
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

int series_version_attachment(git_repository *repo, const struct series *s,
			      const struct series_version *v,
			      const char *name, struct strbuf *out)
{
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	struct strbuf path = STRBUF_INIT;
	size_t i;
	int r;

	for (i = 0; i < v->nr_attach; i++)
		if (!strcmp(v->attach[i].name, name)) {
			strbuf_add(out, v->attach[i].text.buf,
				   v->attach[i].text.len);
			return 0;
		}
	if (!s->tree)
		return RESPIN_ENOTFOUND;
	strbuf_addf(&path, "v%d/%s", v->number, name);
	r = git_tree_entry_bypath(&e, s->tree, path.buf);
	strbuf_release(&path);
	if (r < 0) {
		git_error_clear();
		return RESPIN_ENOTFOUND;
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

static const char *const text_names[] = {
	[SERIES_TEXT_COVER] = "cover",
	[SERIES_TEXT_GIVEN] = "given-trailers",
	[SERIES_TEXT_OFFERED] = "recipients-offered",
	[SERIES_TEXT_SENT] = "sent",
	[SERIES_TEXT_DONE] = "review-done",
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

int series_save_many(git_repository *repo, struct series *s,
		     const git_oid *keep, size_t nkeep, const char *message)
{
	git_treebuilder *tb = NULL;
	git_signature *sig = NULL;
	git_commit **parents = xcalloc(nkeep + 1, sizeof(*parents));
	git_tree *tree = NULL;
	git_reference *ref = NULL;
	struct strbuf buf = STRBUF_INIT, refname = STRBUF_INIT;
	git_oid tree_oid, commit_oid;
	size_t nparents = 0, i;
	int r = -1;

	strbuf_addf(&refname, SERIES_REF_PREFIX "%s", s->name);
	if (git_treebuilder_new(&tb, repo, s->tree) < 0) {
		error_git("cannot build a tree");
		goto out;
	}
	series_format(s, &buf);
	if (insert_blob(repo, tb, "series", &buf) < 0)
		goto out;
	for (i = 0; i < s->nr_versions; i++) {
		/* versions not loaded are unchanged: keep their trees */
		if (!s->versions[i].loaded)
			continue;
		if (write_version_tree(repo, s->tree, tb, &s->versions[i]) < 0)
			goto out;
	}
	if (git_treebuilder_write(&tree_oid, tb) < 0 ||
	    git_tree_lookup(&tree, repo, &tree_oid) < 0) {
		error_git("cannot write the series tree");
		goto out;
	}
	if (repo_signature(repo, &sig) < 0)
		goto out;
	if (!git_oid_is_zero(&s->meta)) {
		if (git_commit_lookup(&parents[nparents], repo, &s->meta) < 0) {
			error_git("cannot read series '%s'", s->name);
			goto out;
		}
		nparents++;
	}
	for (i = 0; i < nkeep; i++) {
		if (git_oid_is_zero(&keep[i]))
			continue;
		if (git_commit_lookup(&parents[nparents], repo, &keep[i]) < 0) {
			error_git("cannot read commit %s",
				  oid_short(&keep[i], 12));
			goto out;
		}
		nparents++;
	}
	/* the summary "respin list" reads without opening the tree */
	strbuf_reset(&buf);
	strbuf_addstr(&buf, message);
	strbuf_rtrim(&buf);
	strbuf_addf(&buf, "\n\nSeries: %s\n", s->name);
	if (s->nr_versions) {
		struct series_version *lv = series_latest(s);
		const char *rf = lv->loaded ?
				 strstr(lv->extra.buf, "rebased-from ") : NULL;

		strbuf_addf(&buf, "Latest: %d\nVersions: %zu\n", lv->number,
			    s->nr_versions);
		if (lv->loaded)
			strbuf_addf(&buf, "Patches: %zu\n", lv->nr_patches);
		/* a "rebased-from N" line of its own (respin rebase) */
		if (rf && (rf == lv->extra.buf || rf[-1] == '\n'))
			strbuf_addf(&buf, "Rebased-From: %d\n", atoi(rf + 13));
	}
	if (s->base_ref)
		strbuf_addf(&buf, "Base-Ref: %s\n", s->base_ref);
	if (s->change_id)
		strbuf_addf(&buf, "Change-Id: %s\n", s->change_id);
	if (git_commit_create(&commit_oid, repo, NULL, sig, sig, NULL, buf.buf,
			      tree, nparents,
			      (const git_commit **)parents) < 0) {
		error_git("cannot write the series commit");
		goto out;
	}
	/*
	 * Compare-and-swap under the ref's lock, creation too: a zero
	 * "current" means "must not exist yet".  (libgit2's create with
	 * force=0 looks for the ref before it takes the lock, so two at
	 * once could both create it and one would be lost.)
	 */
	for (i = 0; i < 100; i++) {
		r = git_reference_create_matching(&ref, repo, refname.buf,
						  &commit_oid, 1, &s->meta,
						  message);
		/* another writer holds the ref's lock for a moment */
		if (r != GIT_ELOCKED)
			break;
		usleep(10000);
	}
	if (r < 0) {
		if ((r == GIT_EEXISTS || r == GIT_EMODIFIED) &&
		    git_oid_is_zero(&s->meta)) {
			error("series '%s' was created by someone else while "
			      "respin worked; nothing was recorded", s->name);
			error_hint("'respin show %s' shows it; run the command "
				   "again to add to it", s->name);
		} else if (r == GIT_EEXISTS || r == GIT_EMODIFIED) {
			error("series '%s' was changed by someone else while "
			      "respin worked; nothing was recorded, try again",
			      s->name);
		} else if (r == GIT_ELOCKED) {
			struct strbuf what = STRBUF_INIT;

			strbuf_addf(&what, "cannot update %s (series '%s')",
				    refname.buf, s->name);
			lock_error_git(what.buf, NULL);
			strbuf_release(&what);
		} else {
			error_git("cannot update %s", refname.buf);
		}
		r = -1;
		goto out;
	}
	git_oid_cpy(&s->meta, &commit_oid);
	git_tree_free(s->tree);
	s->tree = tree;
	tree = NULL;
	r = 0;
out:
	git_reference_free(ref);
	for (i = 0; i < nparents; i++)
		git_commit_free(parents[i]);
	free(parents);
	git_tree_free(tree);
	git_signature_free(sig);
	git_treebuilder_free(tb);
	strbuf_release(&buf);
	strbuf_release(&refname);
	return r;
}

/* ---- names and specs ---- */

int series_version_parse(const char *s)
{
	char *end;
	long n;

	if (*s == 'v' || *s == 'V')
		s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	n = strtol(s, &end, 10);
	if (*end || n < 1 || n > 1000000)
		return -1;
	return (int)n;
}

int series_spec_parse(const char *spec, char **name, int *version)
{
	const char *at = strrchr(spec, '@');

	*name = NULL;
	*version = 0;
	if (!at) {
		*name = xstrdup(spec);
		return 0;
	}
	*version = series_version_parse(at + 1);
	if (*version < 0)
		return error_code(RESPIN_EUSAGE, "'%s': expected NAME@vN, such "
				  "as %.*s@v2", spec, (int)(at - spec), spec);
	*name = xstrndup(spec, (size_t)(at - spec));
	return 0;
}

void series_change_id_make(struct strbuf *out, const char *name, int64_t when)
{
	time_t t = (time_t)when;
	struct tm tm;
	unsigned char rnd[16];
	struct strbuf seed = STRBUF_INIT;
	git_oid oid;
	size_t start, i;
	int fd;

	gmtime_r(&t, &tm);
	strbuf_addf(out, "%04d%02d%02d-", tm.tm_year + 1900, tm.tm_mon + 1,
		    tm.tm_mday);
	start = out->len;
	for (i = 0; name[i] && out->len - start < 40; i++) {
		unsigned char c = (unsigned char)name[i];

		if (isalnum(c))
			strbuf_addch(out, tolower(c));
		else if (out->len > start && out->buf[out->len - 1] != '-')
			strbuf_addch(out, '-');
	}
	while (out->len > start && out->buf[out->len - 1] == '-')
		strbuf_setlen(out, out->len - 1);
	if (out->len == start)
		strbuf_addstr(out, "series");
	strbuf_addch(out, '-');

	memset(rnd, 0, sizeof(rnd));
	fd = open("/dev/urandom", O_RDONLY);
	if (fd >= 0) {
		if (read(fd, rnd, sizeof(rnd)) < 0)
			memset(rnd, 0, sizeof(rnd));
		close(fd);
	}
	strbuf_addf(&seed, "%s %lld %ld ", name, (long long)when, (long)getpid());
	strbuf_add(&seed, rnd, sizeof(rnd));
	git_odb_hash(&oid, seed.buf, seed.len, GIT_OBJECT_BLOB);
	strbuf_addstr(out, oid_short(&oid, 12));
	strbuf_release(&seed);
}

int series_version_get(struct series *s, int number,
		       struct series_version **v)
{
	struct strbuf have = STRBUF_INIT;
	size_t i;

	*v = number ? series_version_find(s, number) : series_latest(s);
	if (*v)
		return 0;
	if (!s->nr_versions)
		return error_code(RESPIN_ENOTFOUND, "series '%s' has no "
				  "versions", s->name);
	for (i = 0; i < s->nr_versions; i++)
		strbuf_addf(&have, "%sv%d", i ? ", " : "",
			    s->versions[i].number);
	error_code(RESPIN_ENOTFOUND, "series '%s' has no v%d (it has %s)",
		   s->name, number, have.buf);
	strbuf_release(&have);
	return RESPIN_ENOTFOUND;
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
