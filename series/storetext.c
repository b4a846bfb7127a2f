// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The series store's side without a repository: a series and its
 * versions in memory, their text formats (the "series" blob, vN/meta,
 * the summary in each metadata commit's message) and names and specs.
 * series/store.c reads and writes them in git.
 */
#include "series/storetext.h"
#include "tools/lib/error.h"
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

/* v's attachment NAME, made empty when it is new. */
static struct series_attachment *attachment_slot(struct series_version *v,
						 const char *name)
{
	struct series_attachment *a;
	size_t i;

	for (i = 0; i < v->nr_attach; i++)
		if (!strcmp(v->attach[i].name, name))
			return &v->attach[i];
	ALLOC_GROW(v->attach, v->nr_attach, v->alloc_attach);
	a = &v->attach[v->nr_attach++];
	a->name = xstrdup(name);
	strbuf_init(&a->text, 0);
	return a;
}

void series_version_attach(struct series_version *v, const char *name,
			   const char *text, size_t len)
{
	struct series_attachment *a = attachment_slot(v, name);

	strbuf_reset(&a->text);
	strbuf_add(&a->text, text, len);
}

void series_version_attach_take(struct series_version *v, const char *name,
				struct strbuf *text)
{
	struct series_attachment *a = attachment_slot(v, name);
	size_t len = text->len, alloc = text->alloc;

	strbuf_attach(&a->text, strbuf_detach(text, NULL), len,
		      alloc ? alloc : len + 1);
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

		int r = le > buf ? fn(buf, klen, val, (size_t)(le - val), buf,
				      (size_t)(le - buf), data) : 0;

		if (r < 0)
			return r;
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
	int number = v->number, r;

	r = each_line(buf, len, version_line, v);
	if (r < 0)
		return r;
	if (number && v->number != number)
		return error("version metadata says v%d where v%d was expected",
			     v->number, number);
	v->loaded = 1;
	return 0;
}

void series_text_format(const struct series *s, struct strbuf *out)
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

int series_text_parse(struct series *s, const char *buf, size_t len)
{
	return each_line(buf, len, series_line, s);
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

void series_summary_parse(struct series_summary *sm, const char *msg,
			  size_t len)
{
	each_line(msg, len, summary_line, sm);
}

void series_summary_format(const struct series *s, const char *message,
			   struct strbuf *out)
{
	strbuf_addstr(out, message);
	strbuf_rtrim(out);
	strbuf_addf(out, "\n\nSeries: %s\n", s->name);
	if (s->nr_versions) {
		const struct series_version *lv =
			&s->versions[s->nr_versions - 1];
		const char *rf = lv->loaded ?
				 strstr(lv->extra.buf, "rebased-from ") : NULL;

		strbuf_addf(out, "Latest: %d\nVersions: %zu\n", lv->number,
			    s->nr_versions);
		if (lv->loaded)
			strbuf_addf(out, "Patches: %zu\n", lv->nr_patches);
		/* a "rebased-from N" line of its own (respin rebase) */
		if (rf && (rf == lv->extra.buf || rf[-1] == '\n'))
			strbuf_addf(out, "Rebased-From: %d\n", atoi(rf + 13));
	}
	if (s->base_ref)
		strbuf_addf(out, "Base-Ref: %s\n", s->base_ref);
	if (s->change_id)
		strbuf_addf(out, "Change-Id: %s\n", s->change_id);
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
