/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CI_PRESET_H
#define RESPIN_CI_PRESET_H

#include <stddef.h>

struct strbuf;

/*
 * A preset: the checks one kind of contributor runs, as git config
 * settings applied before the user's own (so any of them can be changed
 * or switched off: respin.check.NAME.enabled = false).  respin check
 * --preset NAME for one run, respin.check.preset = NAME to keep it.
 */
struct preset_setting {
	const char *key;	/* respin.check.NAME.KEY */
	const char *value;
};

struct preset {
	const char *name;
	const char *brief;
	const struct preset_setting *settings;
	size_t nr;
};

/* The preset called name, or NULL. */
const struct preset *preset_find(const char *name);
/* "mm, ..." */
void preset_names(struct strbuf *out);

#endif
