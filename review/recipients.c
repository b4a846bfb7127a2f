// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/recipients.h"
#include "patches/email.h"
#include "tools/lib/error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void recipients_init(struct recipients *r)
{
	memset(r, 0, sizeof(*r));
}

void recipients_release(struct recipients *r)
{
	size_t i;

	for (i = 0; i < r->nr_to; i++)
		free(r->to[i]);
	for (i = 0; i < r->nr_cc; i++)
		free(r->cc[i]);
	for (i = 0; i < r->nr_keys; i++)
		free(r->keys[i]);
	for (i = 0; i < r->nr_dropped; i++)
		free(r->dropped[i]);
	free(r->to);
	free(r->cc);
	free(r->to_src);
	free(r->cc_src);
	free(r->keys);
	free(r->dropped);
	free(r->dropped_src);
	strmap_release(&r->seen);
	recipients_init(r);
}

/* The address in "Name <a@b>" or "a@b", lower-cased, or NULL. */
static char *address_key(const char *who)
{
	const char *lt = strrchr(who, '<'), *s, *e;
	char *k, *p;

	if (lt) {
		s = lt + 1;
		e = strchr(s, '>');
		if (!e)
			return NULL;
	} else {
		s = who;
		while (isspace((unsigned char)*s))
			s++;
		e = s + strlen(s);
		while (e > s && isspace((unsigned char)e[-1]))
			e--;
	}
	if (e <= s || !memchr(s, '@', (size_t)(e - s)))
		return NULL;
	for (p = (char *)s; p < e; p++)
		if (isspace((unsigned char)*p) || *p == ',' || *p == '<' ||
		    (unsigned char)*p < 0x20)
			return NULL;
	k = xstrndup(s, (size_t)(e - s));
	for (p = k; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return k;
}

/* A copy of who without blanks around it. */
static char *trimmed(const char *who)
{
	char *v;
	size_t n;

	while (isspace((unsigned char)*who))
		who++;
	v = xstrdup(who);
	n = strlen(v);
	while (n && isspace((unsigned char)v[n - 1]))
		v[--n] = '\0';
	return v;
}

/*
 * who as it goes to git send-email and into the headers: "Name <a@b>"
 * with the name written by email_display_name() (quoted, or encoded
 * when it holds an '@' or a line break: git send-email would take a
 * name's "x@y" for the address), or the bare address.
 */
static char *canonical(const char *who)
{
	const char *lt = strrchr(who, '<'), *s = who, *e;
	struct strbuf name = STRBUF_INIT, out = STRBUF_INIT;

	if (!lt)
		return trimmed(who);
	for (e = lt; e > s && isspace((unsigned char)e[-1]); e--)
		;
	while (s < e && isspace((unsigned char)*s))
		s++;
	if (e - s >= 2 && *s == '"' && e[-1] == '"') {
		for (s++, e--; s < e; s++) {
			if (*s == '\\' && s + 1 < e)
				s++;
			strbuf_addch(&name, *s);
		}
	} else {
		strbuf_add(&name, s, (size_t)(e - s));
	}
	email_display_name(&out, name.buf);
	if (out.len)
		strbuf_addch(&out, ' ');
	s = lt;
	e = strchr(s, '>');
	strbuf_add(&out, s, (size_t)(e - s + 1));
	strbuf_release(&name);
	return strbuf_detach(&out, NULL);
}

static void remember(struct recipients *r, char *key, size_t state)
{
	ALLOC_GROW(r->keys, r->nr_keys, r->alloc_keys);
	r->keys[r->nr_keys++] = key;
	strmap_put(&r->seen, key, state);
}

int recipients_add(struct recipients *r, int to, const char *who)
{
	char *key = address_key(who);
	size_t state;

	if (!key)
		return error("\"%s\" is not an address", who);
	if (strmap_get(&r->seen, key, &state)) {
		free(key);
		if (state == 1) {
			/* dropped: say so once */
			ALLOC_GROW(r->dropped, r->nr_dropped, r->alloc_dropped);
			ALLOC_GROW(r->dropped_src, r->nr_dropped,
				   r->alloc_dropped_src);
			r->dropped_src[r->nr_dropped] = r->source;
			r->dropped[r->nr_dropped++] = trimmed(who);
			key = address_key(who);
			strmap_put(&r->seen, key, 2);
			free(key);
		}
		return 1;
	}
	remember(r, key, 0);
	if (to) {
		ALLOC_GROW(r->to, r->nr_to, r->alloc_to);
		ALLOC_GROW(r->to_src, r->nr_to, r->alloc_to_src);
		r->to_src[r->nr_to] = r->source;
		r->to[r->nr_to++] = canonical(who);
	} else {
		ALLOC_GROW(r->cc, r->nr_cc, r->alloc_cc);
		ALLOC_GROW(r->cc_src, r->nr_cc, r->alloc_cc_src);
		r->cc_src[r->nr_cc] = r->source;
		r->cc[r->nr_cc++] = canonical(who);
	}
	return 0;
}

int recipients_drop(struct recipients *r, const char *who)
{
	char *key = address_key(who);
	size_t state;

	if (!key)
		return error("\"%s\" is not an address", who);
	if (strmap_get(&r->seen, key, &state)) {
		free(key);
		return 0;
	}
	remember(r, key, 1);
	return 0;
}

int recipients_has(const struct recipients *r, const char *who)
{
	char *key = address_key(who);
	size_t state;
	int has = key && strmap_get(&r->seen, key, &state) && state == 0;

	free(key);
	return has;
}

int recipients_add_list(struct recipients *r, int to, const char *list)
{
	struct strbuf one = STRBUF_INIT;
	const char *p = list;
	int quoted = 0, angle = 0, ret = 0;

	for (;; p++) {
		if (!*p || ((*p == ',' || *p == '\n') && !quoted && !angle)) {
			strbuf_rtrim(&one);
			if (one.len) {
				const char *s = one.buf;

				while (isspace((unsigned char)*s))
					s++;
				if (*s)
					ret = recipients_add(r, to, s);
			}
			strbuf_setlen(&one, 0);
			if (!*p || ret < 0)
				break;
			continue;
		}
		if (*p == '"')
			quoted = !quoted;
		else if (*p == '<' && !quoted)
			angle = 1;
		else if (*p == '>' && !quoted)
			angle = 0;
		strbuf_addch(&one, *p);
	}
	strbuf_release(&one);
	return ret;
}

void recipients_add_get_maintainer(struct recipients *r, const char *out)
{
	const char *p = out;
	struct strbuf line = STRBUF_INIT;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		const char *role;
		int to;

		strbuf_reset(&line);
		strbuf_add(&line, p, n);
		p += n + (nl ? 1 : 0);
		/* "Name <a@b> (maintainer:MEMORY MANAGEMENT)" */
		role = strstr(line.buf, " (");
		to = role && (!strncmp(role, " (maintainer:", 13) ||
			      !strncmp(role, " (supporter:", 12));
		if (role)
			strbuf_setlen(&line, (size_t)(role - line.buf));
		if (!strchr(line.buf, '@'))
			continue;
		if (recipients_add(r, to, line.buf) < 0)
			error_clear();
	}
	strbuf_release(&line);
}

static int trailer_key(const char *p, size_t n)
{
	size_t k;

	if (n > 4 && !strncasecmp(p, "cc: ", 4))
		return 1;
	for (k = 0; k < n && (isalnum((unsigned char)p[k]) || p[k] == '-'); k++)
		;
	return k > 3 && k + 1 < n && p[k] == ':' &&
	       !strncasecmp(p + k - 3, "-by", 3);
}

void recipients_add_trailers(struct recipients *r, const char *text)
{
	const char *p = text;
	struct strbuf line = STRBUF_INIT;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (trailer_key(p, n)) {
			const char *v = (const char *)memchr(p, ':', n) + 1;

			while (v < p + n && isspace((unsigned char)*v))
				v++;
			strbuf_reset(&line);
			strbuf_add(&line, v, n - (size_t)(v - p));
			strbuf_rtrim(&line);
			/* "Name <a@b> # 6.1" and the like: up to the '>' */
			{
				char *gt = strchr(line.buf, '>');

				if (gt)
					strbuf_setlen(&line, (size_t)(gt + 1 - line.buf));
			}
			if (recipients_add(r, 0, line.buf) < 0)
				error_clear();
		}
		p += n + (nl ? 1 : 0);
	}
	strbuf_release(&line);
}

void recipients_add_stored(struct recipients *r, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		int to = n > 4 && !strncmp(p, "To: ", 4);

		if (to || (n > 4 && !strncmp(p, "Cc: ", 4))) {
			char *v = xstrndup(p + 4, n - 4);

			if (recipients_add(r, to, v) < 0)
				error_clear();
			free(v);
		}
		p += n + (nl ? 1 : 0);
	}
}

void recipients_cc_to_to(struct recipients *r)
{
	if (r->nr_to || !r->nr_cc)
		return;
	ALLOC_GROW(r->to, r->nr_to, r->alloc_to);
	ALLOC_GROW(r->to_src, r->nr_to, r->alloc_to_src);
	r->to[0] = r->cc[0];
	r->to_src[0] = r->cc_src[0];
	r->nr_to = 1;
	r->nr_cc--;
	memmove(r->cc, r->cc + 1, r->nr_cc * sizeof(*r->cc));
	memmove(r->cc_src, r->cc_src + 1, r->nr_cc * sizeof(*r->cc_src));
}

void recipients_format(const struct recipients *r, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < r->nr_to; i++)
		strbuf_addf(out, "To: %s\n", r->to[i]);
	for (i = 0; i < r->nr_cc; i++)
		strbuf_addf(out, "Cc: %s\n", r->cc[i]);
}
