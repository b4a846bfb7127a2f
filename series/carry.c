// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/carry.h"
#include "patches/msgtrailers.h"
#include "patches/patchmail.h"
#include "tools/lib/error.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

void carry_given_add(struct carry_given_list *l, const char *key,
		     const char *value, const char *note)
{
	struct carry_given *g;

	ALLOC_GROW(l->items, l->nr + 1, l->alloc);
	g = &l->items[l->nr++];
	g->key = xstrdup(key);
	g->value = xstrdup(value);
	g->note = note ? xstrdup(note) : NULL;
}

void carry_given_release(struct carry_given_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->items[i].key);
		free(l->items[i].value);
		free(l->items[i].note);
	}
	free(l->items);
	memset(l, 0, sizeof(*l));
}

void carry_commit_release(struct carry_commit *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		free(c->lines[i].key);
		free(c->lines[i].value);
		free(c->lines[i].note);
	}
	free(c->lines);
	free(c->message);
	free(c->committer_name);
	free(c->committer_email);
	memset(c, 0, sizeof(*c));
}

static struct carry_line *line_add(struct carry_commit *c, const char *key,
				   const char *value, const char *note)
{
	struct carry_line *l;

	ALLOC_GROW(c->lines, c->nr + 1, c->alloc);
	l = &c->lines[c->nr++];
	memset(l, 0, sizeof(*l));
	l->key = xstrdup(key);
	l->value = xstrdup(value);
	l->note = note ? xstrdup(note) : NULL;
	return l;
}

/*
 * A Link: value naming a posting: its last part holds an '@'.  *id_at
 * gets where that part starts (the form is everything before it).
 */
static int posting_link(const char *value, size_t *id_at)
{
	size_t n = strlen(value), s;

	while (n && value[n - 1] == '/')
		n--;
	for (s = n; s && value[s - 1] != '/'; s--)
		;
	if (!s || !memchr(value + s, '@', n - s))
		return 0;
	*id_at = s;
	return 1;
}

/* Whether msg ends in a trailer block. */
static int have_trailers(const char *msg)
{
	git_message_trailer_array a = { 0 };
	int r = !git_message_trailers(&a, msg) && a.count > 0;

	git_message_trailer_array_free(&a);
	return r;
}

int carry_make(git_commit *old, const char *new_msg, const char *new_msgid,
	       const struct carry_given_list *given, struct carry_commit *out)
{
	git_message_trailer_array have = { 0 };
	struct trailer_list add;
	struct strbuf msg = STRBUF_INIT, key = STRBUF_INIT;
	const git_signature *cm = old ? git_commit_committer(old) : NULL;
	const char *sob = NULL;
	size_t i, at;
	int link_done = 0;

	memset(out, 0, sizeof(*out));
	trailer_list_init(&add);
	for (i = 0; given && i < given->nr; i++) {
		struct trailer t = { given->items[i].key, given->items[i].value };

		if (message_has_trailer(new_msg, &t))
			continue;
		line_add(out, t.key, t.value, given->items[i].note);
	}
	if (old) {
		git_oid_cpy(&out->from, git_commit_id(old));
		out->committer_name = xstrdup(cm->name);
		out->committer_email = xstrdup(cm->email);
		if (git_message_trailers(&have, git_commit_message(old)) < 0)
			return error_git("cannot read the trailers of %s",
					 git_oid_tostr_s(git_commit_id(old)));
	}
	for (i = 0; i < have.count; i++) {
		const char *k = have.trailers[i].key, *v = have.trailers[i].value;

		if (!strcasecmp(k, "Link") && !link_done &&
		    posting_link(v, &at)) {
			struct strbuf nv = STRBUF_INIT, note = STRBUF_INIT;
			struct carry_line *l;

			link_done = 1;
			if (new_msgid) {
				strbuf_add(&nv, v, at);
				strbuf_addstr(&nv, new_msgid);
				strbuf_addf(&note, "was %s", v + at);
			} else {
				strbuf_addstr(&nv, v);
				strbuf_addstr(&note, "not carried: the new version "
					      "was not sent, so there is no "
					      "mail to link");
			}
			l = line_add(out, "Link", nv.buf, note.buf);
			l->dropped = !new_msgid;
			strbuf_release(&nv);
			strbuf_release(&note);
		} else if (!strcasecmp(k, "Cc")) {
			struct trailer t = { (char *)"Cc", (char *)v };

			if (!message_has_trailer(new_msg, &t))
				line_add(out, "Cc", v, NULL);
		} else if (!strcasecmp(k, "Signed-off-by")) {
			trailer_value_key(v, &key);
			if (cm && cm->email && !strcasecmp(key.buf, cm->email))
				sob = v;
		}
	}
	for (i = 0; i < out->nr; i++)
		if (!out->lines[i].dropped)
			trailer_list_add(&add, out->lines[i].key,
					 strlen(out->lines[i].key),
					 out->lines[i].value,
					 strlen(out->lines[i].value));
	message_add_trailers(new_msg, &add, NULL, &msg);
	if (sob) {
		/* the one who applied it signs last */
		size_t e = msg.len, s;
		struct strbuf last = STRBUF_INIT;

		while (e && (msg.buf[e - 1] == '\n' || msg.buf[e - 1] == ' '))
			e--;
		for (s = e; s && msg.buf[s - 1] != '\n'; s--)
			;
		strbuf_addf(&last, "Signed-off-by: %s", sob);
		if (e - s != last.len || strncmp(msg.buf + s, last.buf, last.len)) {
			strbuf_setlen(&msg, e);
			/* its own block when the message had no trailers */
			strbuf_addstr(&msg, add.nr || have_trailers(new_msg) ?
				      "\n" : "\n\n");
			strbuf_addf(&msg, "%s\n", last.buf);
			line_add(out, "Signed-off-by", sob,
				 "the committer's, last");
		}
		strbuf_release(&last);
	}
	out->message = strbuf_detach(&msg, NULL);
	git_message_trailer_array_free(&have);
	trailer_list_release(&add);
	strbuf_release(&key);
	return 0;
}
