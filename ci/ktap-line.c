// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KTAP / TAP lines (ktap-parts.h): a raw line cleaned of serial console
 * noise, then taken apart (version, plan, result, bail out, subtest
 * header), before the parser (ktap.c) reads it at its depth.
 */
#include "ci/ktap-parts.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/*
 * Copies a raw line without carriage returns, NULs, other control
 * characters and terminal escape sequences, then drops a printk
 * timestamp ("[   1.234567] ", optionally after "<6>") and trailing
 * blanks.
 */
void ktap_line_clean(struct strbuf *out, const char *s, size_t len)
{
	size_t i = 0, skip = 0;
	const char *b;

	strbuf_reset(out);
	while (i < len) {
		unsigned char c = s[i];

		if (c != 0x1b) {
			if (c >= 0x20 || c == '\t')
				strbuf_addch(out, c);
			i++;
			continue;
		}
		if (++i >= len)
			break;
		c = s[i++];
		if (c == '[') {
			/* CSI: parameters and intermediates, then a final. */
			while (i < len && s[i] >= 0x20 && s[i] <= 0x3f)
				i++;
			if (i < len && s[i] >= 0x40 && s[i] <= 0x7e)
				i++;
		} else if (c == ']') {
			/* OSC: up to BEL or ESC \. */
			while (i < len && s[i] != 0x07 &&
			       !(s[i] == 0x1b && i + 1 < len && s[i + 1] == '\\'))
				i++;
			i += i < len && s[i] == 0x07 ? 1 : 2;
		} else if (c >= 0x20 && c <= 0x2f) {
			/* ESC ( B and friends: one more final byte. */
			if (i < len)
				i++;
		}
		/* Anything else (ESC c, ESC 7, ESC =) is two bytes. */
	}

	b = out->buf;
	if (b[0] == '<' && isdigit((unsigned char)b[1]) && b[2] == '>')
		skip = 3;
	if (b[skip] == '[') {
		size_t j = skip + 1;
		int digits = 0;

		while (b[j] == ' ')
			j++;
		while (isdigit((unsigned char)b[j])) {
			j++;
			digits++;
		}
		if (digits && b[j] == '.') {
			j++;
			while (isdigit((unsigned char)b[j]))
				j++;
			if (b[j] == ']') {
				j++;
				if (b[j] == ' ')
					j++;
				skip = j;
			}
		}
	}
	if (skip == 3 && b[3] != '[')
		skip = 0;
	if (skip) {
		memmove(out->buf, out->buf + skip, out->len - skip + 1);
		out->len -= skip;
	}
	strbuf_rtrim(out);
}

/* Reads 1 to 9 digits; returns the end or NULL. */
static const char *number_get(const char *s, int *n)
{
	int v = 0, digits = 0;

	while (isdigit((unsigned char)*s) && digits < 9) {
		v = v * 10 + (*s++ - '0');
		digits++;
	}
	if (!digits || isdigit((unsigned char)*s))
		return NULL;
	*n = v;
	return s;
}

const char *ktap_skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Splits "description # directive" at the first '#' after a blank. */
static void result_text_split(const char *s, struct ktap_line *l)
{
	const char *hash = NULL, *p, *end;

	for (p = s; *p; p++) {
		if (*p == '#' && (p == s || p[-1] == ' ' || p[-1] == '\t')) {
			hash = p;
			break;
		}
	}
	end = hash ? hash : s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	l->name = s;
	l->name_len = end - s;
	if (hash) {
		l->directive = ktap_skip_blanks(hash + 1);
		l->directive_len = strlen(l->directive);
	}
}

int ktap_starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

int ktap_starts_with_icase(const char *s, const char *prefix)
{
	return !strncasecmp(s, prefix, strlen(prefix));
}

/* Is s (at some depth) a KTAP line?  Fills l. */
int ktap_line_classify(const char *s, struct ktap_line *l)
{
	const char *p;

	memset(l, 0, sizeof(*l));
	/* Stray blanks short of a full indent are noise. */
	if (s[0] == ' ') {
		size_t i = 0;

		while (s[i] == ' ' && i < 3)
			i++;
		if (s[i] != ' ')
			s += i;
	}

	if (ktap_starts_with(s, "KTAP version ") || ktap_starts_with(s, "TAP version ")) {
		p = s + (s[0] == 'K' ? 13 : 12);
		if (!number_get(p, &l->version))
			return 0;
		l->kind = LINE_VERSION;
		return 1;
	}
	p = ktap_starts_with(s, "1..") ? number_get(s + 3, &l->number) : NULL;
	if (p) {
		p = ktap_skip_blanks(p);
		if (*p && *p != '#')
			return 0;
		if (l->number > KTAP_MAX_PLAN)
			return 0;
		if (*p == '#') {
			l->directive = ktap_skip_blanks(p + 1);
			l->directive_len = strlen(l->directive);
		}
		l->kind = LINE_PLAN;
		return 1;
	}
	if (ktap_starts_with(s, "ok ") || ktap_starts_with(s, "not ok ")) {
		l->ok = s[0] == 'o';
		p = s + (l->ok ? 3 : 7);
		p = number_get(p, &l->number);
		if (!p || (*p && *p != ' ' && *p != '\t'))
			return 0;
		p = ktap_skip_blanks(p);
		if (p[0] == '-' && (p[1] == ' ' || !p[1]))
			p = ktap_skip_blanks(p + 1);
		result_text_split(p, l);
		l->kind = LINE_RESULT;
		return 1;
	}
	if (ktap_starts_with_icase(s, "Bail out!")) {
		p = ktap_skip_blanks(s + 9);
		l->name = p;
		l->name_len = strlen(p);
		l->kind = LINE_BAIL;
		return 1;
	}
	if (ktap_starts_with(s, "# Subtest:")) {
		p = ktap_skip_blanks(s + 10);
		l->name = p;
		l->name_len = strlen(p);
		l->kind = LINE_SUBTEST;
		return 1;
	}
	return 0;
}
