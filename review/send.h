/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_REVIEW_SEND_H
#define RESPIN_REVIEW_SEND_H

#include <stdint.h>
#include "review/format.h"
#include "review/recipients.h"
#include "review/sendto.h"

/* respin send: a version through git send-email. */

struct send_opts {
	const char *to, *cc;	/* --to, --cc, or NULL */
	int force;		/* despite failed checks, or again */
	int dry_run;
	int64_t now;		/* for fresh Message-IDs and the record */
};

/* A send about to happen. */
struct send_job {
	struct format_result res;	/* the mails */
	struct recipients rc;		/* who gets them, and why */
	struct sendto_options so;
	struct strbuf dir;		/* the mails, written for git */
	struct strbuf lost;		/* tags lost since the last version */
};

void send_job_init(struct send_job *j);
/* Releases j, removing the mails written (when they still are). */
void send_job_release(struct send_job *j);

/*
 * Everything before git send-email: the refusals (sent already unless
 * forced or a dry run; failed checks, or the cover letter still the
 * template, unless forced), the mails (with new Message-IDs when sent
 * again), written for git, and their recipients.
 */
int send_prepare(git_repository *repo, struct series *s,
		 struct series_version *v, const struct send_opts *o,
		 struct send_job *j);

/* git send-email's command line for j (argv NULL-terminated). */
struct send_argv {
	const char **argv;
	char **owned;
	size_t nr_owned;
};
void send_argv(const struct send_job *j, int dry_run, struct send_argv *a);
void send_argv_release(struct send_argv *a);

/*
 * Once sent: the Message-IDs into v (its cover letter's and each
 * patch's), what went to whom as vN/sent; s saved.
 */
int send_record(git_repository *repo, struct series *s,
		struct series_version *v, const struct send_job *j,
		int64_t when);

#endif
