// SPDX-License-Identifier: GPL-2.0-or-later
#include "patches/email.h"
#include "patches/patch.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <ctype.h>
#include <gmime/gmime.h>
#include <string.h>
#include <time.h>

#ifndef RESPIN_VERSION
#define RESPIN_VERSION "0.1"
#endif

void email_subject_tag(struct strbuf *out, const struct email_options *o)
{
	strbuf_addf(out, "[%s", o->prefix && *o->prefix ? o->prefix : "PATCH");
	if (o->version > 1)
		strbuf_addf(out, " v%d", o->version);
	if (o->total) {
		int w = o->total >= 100 ? 3 : o->total >= 10 ? 2 : 1;

		strbuf_addf(out, " %0*zu/%zu", w, o->index, o->total);
	}
	strbuf_addch(out, ']');
}

void email_date(struct strbuf *out, git_time_t when, int offset)
{
	static const char *const days[] = {
		"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"
	};
	static const char *const months[] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
	};
	time_t t = (time_t)when + (time_t)offset * 60;
	struct tm tm;
	int a = offset < 0 ? -offset : offset;

	gmtime_r(&t, &tm);
	strbuf_addf(out, "%s, %d %s %d %02d:%02d:%02d %c%02d%02d",
		    days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
		    tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec,
		    offset < 0 ? '-' : '+', a / 60, a % 60);
}

static int is_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80 || *s == '\n' || *s == '\r')
			return 0;
	return 1;
}

static void mime_init(void)
{
	static int done;

	if (!done) {
		g_mime_init();
		done = 1;
	}
}

static void add_encoded(struct strbuf *out, const char *text)
{
	char *enc;

	if (is_ascii(text)) {
		strbuf_addstr(out, text);
		return;
	}
	mime_init();
	enc = g_mime_utils_header_encode_text(NULL, text, "utf-8");
	if (!enc) {
		strbuf_addstr(out, text);
		return;
	}
	/* header values stay on one line: b4 0.12 trips on folded ones */
	for (char *p = enc; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	strbuf_addstr(out, enc);
	g_free(enc);
}

/*
 * Folds the header line that starts at out->buf + start when it is
 * longer than RFC 5322's limit of 998 characters: then at blanks, into
 * lines of at most 78 where the words allow, as git format-patch does.
 * Shorter lines stay whole: b4 0.12 cannot read a folded Subject.
 */
static void fold_long(struct strbuf *out, size_t start)
{
	struct strbuf line = STRBUF_INIT;
	const char *p, *end;
	size_t col = 0;

	if (out->len - start <= 998)
		return;
	strbuf_add(&line, out->buf + start, out->len - start);
	strbuf_setlen(out, start);
	p = line.buf;
	end = line.buf + line.len;
	while (p < end) {
		const char *sp = memchr(p + 1, ' ', (size_t)(end - p - 1));
		size_t n = (size_t)((sp ? sp : end) - p);

		if (col && col + n > 78) {
			/* the blank before the word starts the next line */
			strbuf_addch(out, '\n');
			col = 0;
		}
		strbuf_add(out, p, n);
		col += n;
		p += n;
	}
	strbuf_release(&line);
}

void email_mime_headers(struct strbuf *out)
{
	strbuf_addstr(out, "MIME-Version: 1.0\n"
		      "Content-Type: text/plain; charset=UTF-8\n"
		      "Content-Transfer-Encoding: 8bit\n\n");
}

void email_header(struct strbuf *out, const char *name, const char *value)
{
	size_t start = out->len;

	strbuf_addf(out, "%s: ", name);
	add_encoded(out, value);
	fold_long(out, start);
	strbuf_addch(out, '\n');
}

/* An RFC 5322 special: a name holding one is a quoted-string. */
static int is_special(char c)
{
	return c && strchr("()<>[]:;@\\,.\"", c) != NULL;
}

/*
 * A name as RFC 2047 encoded words for a phrase (Q encoding: letters,
 * digits and !*+-/ stay, a space is '_', every other byte =XX), each
 * word at most 75 characters and cut between UTF-8 characters.
 */
static void add_phrase_words(struct strbuf *out, const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	size_t word = 0;

	while (*p) {
		size_t clen = 1, need = 0, k;

		if (*p >= 0xc0)
			while (clen < 4 && (p[clen] & 0xc0) == 0x80)
				clen++;
		for (k = 0; k < clen; k++)
			need += isalnum(p[k]) || strchr("!*+-/ ", p[k]) ? 1 : 3;
		if (word && word + need + 2 > 75) {
			strbuf_addstr(out, "?= ");
			word = 0;
		}
		if (!word) {
			strbuf_addstr(out, "=?UTF-8?q?");
			word = 10;
		}
		for (k = 0; k < clen; k++, p++) {
			if (*p == ' ')
				strbuf_addch(out, '_');
			else if (isalnum(*p) || strchr("!*+-/", *p))
				strbuf_addch(out, (char)*p);
			else
				strbuf_addf(out, "=%02X", *p);
		}
		word += need;
	}
	if (word)
		strbuf_addstr(out, "?=");
}

void email_display_name(struct strbuf *out, const char *name)
{
	struct strbuf clean = STRBUF_INIT;
	const char *p;
	int special = 0, encode = 0;

	/* a line break or other control character is a blank here */
	for (p = name; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c == 0x7f) {
			if (clean.len && clean.buf[clean.len - 1] != ' ')
				strbuf_addch(&clean, ' ');
			continue;
		}
		strbuf_addch(&clean, *p);
		if (c >= 0x80 || c == '@' || c == '"' || c == '\\')
			encode = 1;	/* '@': git send-email takes it as the address */
		else if (is_special(*p))
			special = 1;
	}
	strbuf_rtrim(&clean);
	for (p = clean.buf; *p == ' '; p++)
		;
	if (!*p)
		;
	else if (encode)
		add_phrase_words(out, p);
	else if (special)
		strbuf_addf(out, "\"%s\"", p);
	else
		strbuf_addstr(out, p);
	strbuf_release(&clean);
}

void email_address_header(struct strbuf *out, const char *hname,
			  const char *name, const char *email)
{
	size_t at;

	strbuf_addf(out, "%s: ", hname);
	at = out->len;
	if (name)
		email_display_name(out, name);
	if (out->len > at)
		strbuf_addch(out, ' ');
	strbuf_addf(out, "<%s>\n", email);
}

/* The message after its first paragraph (the subject), trimmed. */
static const char *message_body(const char *msg)
{
	const char *p = strstr(msg, "\n\n");

	if (!p)
		return "";
	while (*p == '\n')
		p++;
	return p;
}

int email_from_commit(git_repository *repo, git_commit *commit,
		      const struct email_options *o, struct strbuf *out)
{
	const git_signature *author = git_commit_author(commit);
	git_diff *diff = NULL;
	git_diff_stats *stats = NULL;
	git_buf stat = GIT_BUF_INIT, patch = GIT_BUF_INIT;
	struct strbuf subject = STRBUF_INIT, body = STRBUF_INIT;
	const char *summary = git_commit_summary(commit);
	int r = patch_commit_diff(repo, commit, &diff);

	if (r < 0)
		return r;
	r = RESPIN_ERR;
	if (git_diff_get_stats(&stats, diff) < 0 ||
	    git_diff_stats_to_buf(&stat, stats, GIT_DIFF_STATS_FULL |
				  GIT_DIFF_STATS_INCLUDE_SUMMARY, 72) < 0 ||
	    git_diff_to_buf(&patch, diff, GIT_DIFF_FORMAT_PATCH) < 0) {
		error_git("cannot write the diff of %s",
			  oid_short(git_commit_id(commit), 12));
		goto out;
	}

	strbuf_addf(out, "From %s Mon Sep 17 00:00:00 2001\n",
		    oid_short(git_commit_id(commit), GIT_OID_HEXSZ));
	email_address_header(out, "From", author->name, author->email);
	strbuf_addstr(out, "Date: ");
	email_date(out, author->when.time, author->when.offset);
	strbuf_addch(out, '\n');
	email_subject_tag(&subject, o);
	strbuf_addf(&subject, " %s", summary ? summary : "");
	email_header(out, "Subject", subject.buf);
	if (o->message_id)
		strbuf_addf(out, "Message-Id: <%s>\n", o->message_id);
	if (o->in_reply_to)
		strbuf_addf(out, "In-Reply-To: <%s>\n", o->in_reply_to);
	if (o->references)
		strbuf_addf(out, "References: %s\n", o->references);
	email_mime_headers(out);

	strbuf_addstr(&body, message_body(git_commit_message(commit)));
	strbuf_rtrim(&body);
	if (o->trailer_block && *o->trailer_block) {
		if (body.len)
			strbuf_addch(&body, '\n');
		strbuf_addstr(&body, o->trailer_block);
		strbuf_rtrim(&body);
	}
	if (body.len) {
		strbuf_add(out, body.buf, body.len);
		strbuf_addch(out, '\n');
	}
	strbuf_addstr(out, "---\n");
	if (o->notes && *o->notes) {
		strbuf_addstr(out, o->notes);
		if (out->buf[out->len - 1] != '\n')
			strbuf_addch(out, '\n');
		strbuf_addch(out, '\n');
	}
	strbuf_add(out, stat.ptr, stat.size);
	strbuf_addch(out, '\n');
	strbuf_add(out, patch.ptr, patch.size);
	if (o->base_info && *o->base_info) {
		strbuf_addch(out, '\n');
		strbuf_addstr(out, o->base_info);
	}
	strbuf_addstr(out, "-- \nrespin " RESPIN_VERSION "\n\n");
	r = 0;
out:
	git_buf_dispose(&stat);
	git_buf_dispose(&patch);
	git_diff_stats_free(stats);
	git_diff_free(diff);
	strbuf_release(&subject);
	strbuf_release(&body);
	return r;
}

void email_file_name(struct strbuf *out, int version, size_t index,
		     const char *subject)
{
	size_t begin = out->len, start, max;

	if (version > 1)
		strbuf_addf(out, "v%d-", version);
	strbuf_addf(out, "%04zu-", index);
	start = out->len;
	/* as git's: at most 57 characters before ".patch", prefix included */
	max = start - begin < 57 ? 57 - (start - begin) : 0;
	for (; *subject && out->len - start < max; subject++) {
		unsigned char c = (unsigned char)*subject;

		if (isalnum(c) || c == '_' || (c == '.' && out->len > start &&
						out->buf[out->len - 1] != '.'))
			strbuf_addch(out, (char)c);
		else if (out->len > start && out->buf[out->len - 1] != '-')
			strbuf_addch(out, '-');
	}
	while (out->len > start && (out->buf[out->len - 1] == '-' ||
				    out->buf[out->len - 1] == '.'))
		strbuf_setlen(out, out->len - 1);
	if (out->len == start)
		strbuf_addstr(out, "patch");
	strbuf_addstr(out, ".patch");
}

void email_mboxrd_append(struct strbuf *out, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	int first = 1;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p + 1) : (size_t)(end - p);
		const char *q = p;

		while (q < p + n && *q == '>')
			q++;
		if (!first && (size_t)(p + n - q) >= 5 && !strncmp(q, "From ", 5))
			strbuf_addch(out, '>');
		strbuf_add(out, p, n);
		p += n;
		first = 0;
	}
}
