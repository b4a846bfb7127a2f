// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/template.h"
#include "tools/lib/error.h"

#include <string.h>

static const struct template_var *lookup(const struct template_var *vars,
					 size_t nr, const char *name,
					 size_t len)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (strlen(vars[i].name) == len &&
		    !memcmp(vars[i].name, name, len))
			return &vars[i];
	return NULL;
}

/* Expands one line (without its newline) into out. */
static int expand_line(const char *line, size_t len,
		       const struct template_var *vars, size_t nr,
		       const char *origin, size_t lineno, struct strbuf *out)
{
	const char *p = line, *end = line + len;

	while (p < end) {
		const char *close;
		const struct template_var *v;

		if (end - p >= 3 && !memcmp(p, "$${", 3)) {
			strbuf_addstr(out, "${");
			p += 3;
			continue;
		}
		if (end - p < 2 || memcmp(p, "${", 2)) {
			strbuf_addch(out, *p++);
			continue;
		}
		close = memchr(p + 2, '}', (size_t)(end - p - 2));
		if (!close)
			return error("%s, line %zu: \"${\" without its \"}\"",
				     origin, lineno);
		v = lookup(vars, nr, p + 2, (size_t)(close - p - 2));
		if (!v)
			return error("%s, line %zu: unknown variable "
				     "${%.*s}; known are ${title}, ${body}, "
				     "${changes}, ${results}, ${benchmarks}, "
				     "${shortlog}, ${diffstat}, ...",
				     origin, lineno, (int)(close - p - 2),
				     p + 2);
		if (v->value)
			strbuf_addstr(out, v->value);
		p = close + 1;
	}
	return 0;
}

/*
 * Whether a line has variables and every one of them is empty: such a
 * line ("base-commit: ${base_commit}" with no base) goes away.
 */
static int only_empty_vars(const char *line, size_t len,
			   const struct template_var *vars, size_t nr)
{
	const char *p = line, *end = line + len;
	int seen = 0;

	while (p < end) {
		const struct template_var *v;
		const char *close;

		if (end - p >= 3 && !memcmp(p, "$${", 3)) {
			p += 3;
			continue;
		}
		if (end - p < 2 || memcmp(p, "${", 2)) {
			p++;
			continue;
		}
		close = memchr(p + 2, '}', (size_t)(end - p - 2));
		if (!close)
			return 0;
		v = lookup(vars, nr, p + 2, (size_t)(close - p - 2));
		if (!v || (v->value && *v->value))
			return 0;
		seen = 1;
		p = close + 1;
	}
	return seen;
}

int template_expand(const char *tmpl, const struct template_var *vars,
		    size_t nr, const char *origin, struct strbuf *out)
{
	struct strbuf raw = STRBUF_INIT;
	const char *p = tmpl;
	size_t lineno = 0, i, blank_run = 0, start = out->len;
	int r = 0;

	while (*p && !r) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		lineno++;
		if (!only_empty_vars(p, len, vars, nr)) {
			r = expand_line(p, len, vars, nr, origin, lineno, &raw);
			/* a value ends in a newline; the line's own is extra */
			if (!(raw.len && raw.buf[raw.len - 1] == '\n' &&
			      len && p[len - 1] == '}'))
				strbuf_addch(&raw, '\n');
		}
		p += len + (nl ? 1 : 0);
	}
	if (r < 0) {
		strbuf_release(&raw);
		return r;
	}
	/* no blank lines at the start, at most one in a row */
	for (i = 0; i < raw.len; i++) {
		int line_start = i == 0 || raw.buf[i - 1] == '\n';

		if (line_start && raw.buf[i] == '\n') {
			if (blank_run++ || out->len == start)
				continue;
		} else if (line_start) {
			blank_run = 0;
		}
		strbuf_addch(out, raw.buf[i]);
	}
	strbuf_release(&raw);
	return 0;
}
