// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/lint.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void lint_report_release(struct lint_report *lr)
{
	size_t i;

	for (i = 0; i < lr->nr; i++) {
		free(lr->items[i].severity);
		free(lr->items[i].type);
		free(lr->items[i].file);
		free(lr->items[i].message);
	}
	free(lr->items);
	memset(lr, 0, sizeof(*lr));
}

static void parse_line(struct lint_report *lr, const char *p, size_t len)
{
	static const char *const sev[] = { "ERROR", "WARNING", "CHECK" };
	const char *end = p + len, *s = NULL, *colon, *num;
	struct lint_finding *f;
	size_t k, sl = 0;

	for (k = 0; k < 3 && !s; k++) {
		char pat[16];
		const char *hit;

		pat[0] = ':';
		pat[1] = ' ';
		strcpy(pat + 2, sev[k]);
		sl = strlen(pat);
		pat[sl++] = ':';
		pat[sl] = '\0';
		hit = memmem(p, len, pat, sl);
		if (hit)
			s = hit;
	}
	if (!s)
		return;
	k--;
	/* "file:line" before it */
	colon = s;
	num = colon;
	while (num > p && isdigit((unsigned char)num[-1]))
		num--;
	if (num == colon || num == p || num[-1] != ':')
		return;
	ALLOC_GROW(lr->items, lr->nr, lr->alloc);
	f = &lr->items[lr->nr++];
	memset(f, 0, sizeof(*f));
	f->severity = xstrdup(sev[k]);
	f->file = xstrndup(p, (size_t)(num - 1 - p));
	if (!strcmp(f->file, "-"))
		f->file[0] = '\0';
	f->line = strtol(num, NULL, 10);
	{
		const char *t = s + sl, *te;

		while (t < end && *t == ' ')
			t++;
		te = t;
		while (te < end && *te != ':' && *te != ' ')
			te++;
		f->type = xstrndup(t, (size_t)(te - t));
		if (te < end && *te == ':')
			te++;
		while (te < end && *te == ' ')
			te++;
		f->message = xstrndup(te, (size_t)(end - te));
	}
	if (k == 0)
		lr->errors++;
	else if (k == 1)
		lr->warnings++;
	else
		lr->checks++;
}

void lint_parse(struct lint_report *lr, const char *text, size_t len)
{
	const char *end = text + len;

	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		size_t l = nl ? (size_t)(nl - text) : (size_t)(end - text);

		parse_line(lr, text, l);
		text = nl ? nl + 1 : end;
	}
}

void lint_summary(const struct lint_report *lr, struct strbuf *out)
{
	strbuf_addf(out, "%zuE %zuW", lr->errors, lr->warnings);
	if (lr->checks)
		strbuf_addf(out, " %zuC", lr->checks);
}

void lint_to_json(const struct lint_report *lr, struct json *j)
{
	size_t i;

	json_object_begin(j);
	json_int_member(j, "errors", (int64_t)lr->errors);
	json_int_member(j, "warnings", (int64_t)lr->warnings);
	json_int_member(j, "checks", (int64_t)lr->checks);
	json_key(j, "findings");
	json_array_begin(j);
	for (i = 0; i < lr->nr; i++) {
		const struct lint_finding *f = &lr->items[i];

		json_object_begin(j);
		json_string_member(j, "severity", f->severity);
		json_string_member(j, "type", f->type);
		json_string_member(j, "file", f->file);
		json_int_member(j, "line", f->line);
		json_string_member(j, "message", f->message);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}
