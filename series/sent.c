// SPDX-License-Identifier: GPL-2.0-or-later
/* Whether a version went out, and marking one sent (series/sent.h). */
#include "series/sent.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>

/* Whether extra holds a line "sent ..." of its own. */
static int has_sent_line(const struct strbuf *extra)
{
	const char *p = extra->buf;

	while (p && *p) {
		if (!strncmp(p, "sent ", 5))
			return 1;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

int series_version_sent(const struct series_version *v)
{
	return v && ((v->message_id && *v->message_id) ||
		     has_sent_line(&v->extra));
}

void series_version_mark_sent(struct series_version *v, const char *msgid)
{
	if (msgid && *msgid) {
		free(v->message_id);
		v->message_id = xstrdup(msgid);
	}
	if (!has_sent_line(&v->extra))
		strbuf_addf(&v->extra, "sent %lld\n", (long long)repo_now());
}

int series_numbering_by_sent(git_repository *repo)
{
	char *val = repo_config_string(repo, "respin.numbering", NULL);
	int by_sent = 1;

	if (val) {
		if (!strcmp(val, "track"))
			by_sent = 0;
		else if (strcmp(val, "sent"))
			warning("respin.numbering is '%s'; it takes 'sent' or "
				"'track': numbering by what was sent", val);
	}
	free(val);
	return by_sent;
}
