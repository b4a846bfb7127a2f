// SPDX-License-Identifier: GPL-2.0-or-later
/* format=flowed text undone (patches/mail.h, RFC 3676). */
#include "patches/mail.h"
#include "tools/lib/strbuf.h"

#include <string.h>
#include <strings.h>

/*
 * Does the Content-Type value ct carry the parameter name=value
 * (case-insensitive, the value maybe quoted)?
 */
int mail_ct_param_is(const char *ct, const char *name, const char *value)
{
	size_t n = strlen(name), v = strlen(value);
	const char *p = ct;

	while ((p = strcasestr(p, name)) != NULL) {
		const char *q = p + n;

		if (p > ct && p[-1] != ';' && p[-1] != ' ' && p[-1] != '\t') {
			p = q;
			continue;
		}
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q++ != '=') {
			p = q;
			continue;
		}
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == '"')
			q++;
		return !strncasecmp(q, value, v) &&
		       (!q[v] || strchr("\"; \t\r\n", q[v]));
	}
	return 0;
}

void mail_unflow(const char *p, size_t len, int delsp, struct strbuf *out)
{
	const char *end = p + len;
	size_t pending = 0;	/* a flowed line waits: its quote depth + 1 */

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *c = p;
		size_t depth = 0;

		if (e > p && e[-1] == '\r')
			e--;
		/* the signature separator stays as it is */
		if (e - p == 3 && !memcmp(p, "-- ", 3)) {
			if (pending)
				strbuf_addch(out, '\n');
			pending = 0;
			strbuf_add(out, p, 3);
			strbuf_addch(out, '\n');
			p = nl ? nl + 1 : end;
			continue;
		}
		while (c < e && *c == '>')
			c++;
		depth = (size_t)(c - p);
		if (pending && pending != depth + 1) {
			strbuf_addch(out, '\n');	/* flowed into another depth */
			pending = 0;
		}
		/*
		 * A continuation adds its text without its quote marks; a
		 * line of its own keeps them.  The space stuffed in front of
		 * an unquoted line goes (as git mailinfo takes it off).
		 */
		if (!depth && c < e && *c == ' ')
			c++;
		else if (pending && depth && c < e && *c == ' ')
			c++;
		if (!pending && depth)
			strbuf_add(out, p, (size_t)(c - p));
		if (e > c && e[-1] == ' ') {
			strbuf_add(out, c, (size_t)(e - c) - !!delsp);
			pending = depth + 1;
		} else {
			strbuf_add(out, c, (size_t)(e - c));
			strbuf_addch(out, '\n');
			pending = 0;
		}
		p = nl ? nl + 1 : end;
	}
	if (pending)
		strbuf_addch(out, '\n');
}
