// SPDX-License-Identifier: GPL-2.0-or-later
#include "patches/msgtrailers.h"

#include <ctype.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void trailer_value_key(const char *value, struct strbuf *out)
{
	const char *lt = strrchr(value, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	const char *s = value, *e = value + strlen(value);
	size_t i;

	if (lt && gt) {
		s = lt + 1;
		e = gt;
	}
	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	strbuf_setlen(out, 0);
	for (i = 0; s + i < e; i++)
		strbuf_addch(out, tolower((unsigned char)s[i]));
}

/* Whether "key: value" (by key and address) is among the lines. */
static int has_trailer(const git_message_trailer_array *have,
		       const struct trailer_list *added, size_t nadded,
		       const struct trailer *t)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	size_t i;
	int found = 0;

	trailer_value_key(t->value, &a);
	for (i = 0; have && i < have->count && !found; i++) {
		if (strcasecmp(have->trailers[i].key, t->key))
			continue;
		trailer_value_key(have->trailers[i].value, &b);
		found = !strcmp(a.buf, b.buf);
	}
	for (i = 0; i < nadded && !found; i++) {
		if (strcasecmp(added->items[i].key, t->key))
			continue;
		trailer_value_key(added->items[i].value, &b);
		found = !strcmp(a.buf, b.buf);
	}
	strbuf_release(&a);
	strbuf_release(&b);
	return found;
}

/* Where the last non-blank line of msg starts, and where it ends. */
static void last_line(const char *msg, size_t *start, size_t *end)
{
	size_t e = strlen(msg), s;

	while (e && isspace((unsigned char)msg[e - 1]))
		e--;
	s = e;
	while (s && msg[s - 1] != '\n')
		s--;
	*start = s;
	*end = e;
}

int message_has_trailer(const char *msg, const struct trailer *t)
{
	git_message_trailer_array have = { 0 };
	char *head = xstrndup(msg, message_notes_start(msg));
	int found = 0;

	if (!git_message_trailers(&have, head) && have.count)
		found = has_trailer(&have, NULL, 0, t);
	git_message_trailer_array_free(&have);
	free(head);
	return found;
}

size_t message_notes_start(const char *msg)
{
	const char *p = strchr(msg, '\n');

	/* as git interpret-trailers: a "---" line after the subject */
	while (p) {
		p++;
		if (!strncmp(p, "---", 3) &&
		    (!p[3] || isspace((unsigned char)p[3])))
			return (size_t)(p - msg);
		p = strchr(p, '\n');
	}
	return strlen(msg);
}

static size_t add_trailers(const char *msg, const struct trailer_list *add,
			   const char *submitter_addr, struct strbuf *out);

size_t message_add_trailers(const char *msg, const struct trailer_list *add,
			    const char *submitter_addr, struct strbuf *out)
{
	size_t cut = message_notes_start(msg), n;
	char *head;

	if (!msg[cut])
		return add_trailers(msg, add, submitter_addr, out);
	/* the trailers go above the notes, which stay as they are */
	head = xstrndup(msg, cut);
	n = add_trailers(head, add, submitter_addr, out);
	free(head);
	strbuf_addstr(out, msg + cut);
	return n;
}

size_t message_drop_trailers(const char *msg, const struct trailer_list *drop,
			     struct strbuf *out)
{
	size_t cut = message_notes_start(msg), n = 0;
	const char *p = msg, *end = msg + cut, *block;
	struct strbuf key = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;

	/* the trailer block: the last paragraph above the notes */
	block = end;
	while (block > msg && isspace((unsigned char)block[-1]))
		block--;
	while (block > msg && !(block[-1] == '\n' && block - 1 > msg &&
				block[-2] == '\n'))
		block--;
	strbuf_setlen(out, 0);
	strbuf_add(out, msg, (size_t)(block - msg));
	for (p = block; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *colon;
		size_t i;
		int gone = 0;

		colon = memchr(p, ':', (size_t)(e - p));
		for (i = 0; colon && i < drop->nr && !gone; i++) {
			if ((size_t)(colon - p) != strlen(drop->items[i].key) ||
			    strncasecmp(p, drop->items[i].key,
					(size_t)(colon - p)))
				continue;
			strbuf_reset(&key);
			strbuf_add(&key, colon + 1, (size_t)(e - colon - 1));
			trailer_value_key(key.buf, &a);
			trailer_value_key(drop->items[i].value, &b);
			gone = !strcmp(a.buf, b.buf);
		}
		if (gone)
			n++;
		else
			strbuf_add(out, p, (size_t)((nl ? nl + 1 : end) - p));
		p = nl ? nl + 1 : end;
	}
	strbuf_addstr(out, msg + cut);
	strbuf_release(&key);
	strbuf_release(&a);
	strbuf_release(&b);
	return n;
}

static size_t add_trailers(const char *msg, const struct trailer_list *add,
			   const char *submitter_addr, struct strbuf *out)
{
	git_message_trailer_array have = { 0 };
	struct trailer_list todo;
	struct strbuf lines = STRBUF_INIT, key = STRBUF_INIT;
	size_t i, ls, le, split, n = 0;
	int has_block;

	trailer_list_init(&todo);
	has_block = !git_message_trailers(&have, msg) && have.count > 0;
	for (i = 0; i < add->nr; i++)
		if (!has_trailer(has_block ? &have : NULL, &todo, todo.nr,
				 &add->items[i]))
			trailer_list_add(&todo, add->items[i].key,
					 strlen(add->items[i].key),
					 add->items[i].value,
					 strlen(add->items[i].value));
	strbuf_setlen(out, 0);
	if (!todo.nr) {
		strbuf_addstr(out, msg);
		goto out;
	}
	n = todo.nr;
	for (i = 0; i < todo.nr; i++)
		strbuf_addf(&lines, "%s: %s\n", todo.items[i].key,
			    todo.items[i].value);
	last_line(msg, &ls, &le);
	if (!has_block) {
		strbuf_add(out, msg, le);
		strbuf_addstr(out, "\n\n");
		strbuf_addstr(out, lines.buf);
		goto out;
	}
	split = le;
	/* "Signed-off-by: <submitter>" last: the new ones go before it */
	if (submitter_addr && le - ls > 14 &&
	    !strncasecmp(msg + ls, "Signed-off-by:", 14)) {
		struct strbuf v = STRBUF_INIT;

		strbuf_add(&v, msg + ls + 14, le - ls - 14);
		trailer_value_key(v.buf, &key);
		if (!strcasecmp(key.buf, submitter_addr))
			split = ls;
		strbuf_release(&v);
	}
	if (split == le) {
		strbuf_add(out, msg, le);
		strbuf_addch(out, '\n');
		strbuf_addstr(out, lines.buf);
	} else {
		strbuf_add(out, msg, split);
		strbuf_addstr(out, lines.buf);
		strbuf_add(out, msg + split, le - split);
		strbuf_addch(out, '\n');
	}
out:
	git_message_trailer_array_free(&have);
	trailer_list_release(&todo);
	strbuf_release(&lines);
	strbuf_release(&key);
	return n;
}
