// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * diff-read: reads the diff of every patch mail of an mbox as respin
 * reads it (mail_body_parse, patchmail_split, git_diff_from_buffer),
 * for the benchmark that compares it with git apply.
 *
 *	diff-read PATH
 *
 * A patch mail: a subject with "PATCH" in its first [...] and no "Re:",
 * and a diff in its body.  One line each: "NUMBER ok PATCH-ID" or
 * "NUMBER bad REASON" (NUMBER counts messages from 1, as git mailsplit
 * does); then "patch_mails N" and "unreadable U" on stderr.
 */
#include "patches/mail.h"
#include "patches/patch.h"
#include "patches/mbox.h"
#include "patches/patchmail.h"
#include "tools/lib/error.h"

#include <git2.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static int patch_subject(const char *s)
{
	const char *b = s ? strchr(s, '[') : NULL;
	const char *e = b ? strchr(b, ']') : NULL;
	const char *p = b ? strstr(b, "PATCH") : NULL;

	return s && strncasecmp(s, "Re:", 3) && e && p && p < e;
}

int main(int argc, char **argv)
{
	struct mbox_msg msg;
	struct mbox *mb;
	size_t nr = 0, bad = 0;
	int r;

	if (argc != 2) {
		fprintf(stderr, "usage: diff-read PATH\n");
		return 129;
	}
	git_libgit2_init();
	if (mbox_open(&mb, argv[1], MBOX_AUTO) < 0)
		return error_report(-1);
	while ((r = mbox_next(mb, &msg)) > 0) {
		struct mail_where where = { argv[1], msg.number };
		struct mail_header h;
		struct mail_body b;
		struct patchmail pm;
		git_diff *diff = NULL;
		const char *why = NULL;
		git_oid id;

		mail_header_init(&h);
		mail_body_init(&b);
		patchmail_init(&pm);
		if (mail_header_scan(&h, msg.data, msg.len, &where) < 0 ||
		    !patch_subject(h.subject) ||
		    mail_body_parse(&b, msg.data, msg.len, &where) < 0 ||
		    patchmail_find_diff(b.text, b.len) == b.len) {
			error_clear();
			goto next;
		}
		nr++;
		if (patchmail_split(&pm, b.text, b.len, "mail") < 0)
			why = error_last();
		else if (git_diff_from_buffer(&diff, pm.diff.p, pm.diff.len) < 0 ||
			 patch_diff_id(diff, &id) < 0)
			why = git_error_last()->message;
		if (why) {
			bad++;
			printf("%zu bad %s\n", (size_t)msg.number, why);
		} else {
			printf("%zu ok %s\n", (size_t)msg.number,
			       git_oid_tostr_s(&id));
		}
		error_clear();
next:
		git_diff_free(diff);
		patchmail_release(&pm);
		mail_body_release(&b);
		mail_header_release(&h);
	}
	mbox_free(mb);
	fprintf(stderr, "patch_mails %zu\nunreadable %zu\n", nr, bad);
	git_libgit2_shutdown();
	return r < 0 ? error_report(-1) : 0;
}
