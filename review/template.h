/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_TEMPLATE_H
#define RESPIN_REVIEW_TEMPLATE_H

#include <stddef.h>
#include "tools/lib/strbuf.h"

/*
 * A text template: "${name}" is replaced by the value of variable name.
 * A line with variables that all have empty values goes away, and
 * runs of blank lines shrink to one, so that missing parts leave no
 * holes.  "$${" writes "${".
 */
struct template_var {
	const char *name;
	const char *value;	/* NULL is the same as "" */
};

/*
 * Expands tmpl into out.  An unknown variable or an unclosed "${" is an
 * error naming it and where the template came from (origin).
 */
int template_expand(const char *tmpl, const struct template_var *vars,
		    size_t nr, const char *origin, struct strbuf *out);

#endif
