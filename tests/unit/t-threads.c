// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The helpers that hand back a borrowed buffer (oid_short, repo_date,
 * term_safe) are called from the lint threads of respin check -j: each
 * thread must get buffers of its own.  Four threads call each one many
 * times with a value of their own and check what they got back; with
 * one shared buffer another thread's value shows up (and ThreadSanitizer,
 * make check TSAN=1, reports the race).
 */
#include "tap.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define THREADS 4
#define ROUNDS 20000

struct worker {
	int n;
	size_t bad_oid, bad_date, bad_safe;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	char want_hex[GIT_OID_HEXSZ + 1], want_safe[32], text[32];
	char want_date[32];
	git_oid oid;
	int i;

	memset(&oid, 0, sizeof(oid));
	memset(oid.id, 0x11 * (w->n + 1), sizeof(oid.id));
	git_oid_tostr(want_hex, sizeof(want_hex), &oid);
	snprintf(want_date, sizeof(want_date), "%s",
		 repo_date(86400LL * 365 * (w->n + 1)));
	snprintf(text, sizeof(text), "t%d\x1b", w->n);
	snprintf(want_safe, sizeof(want_safe), "t%d\\e", w->n);
	for (i = 0; i < ROUNDS; i++) {
		const char *h = oid_short(&oid, GIT_OID_HEXSZ);
		const char *d = repo_date(86400LL * 365 * (w->n + 1));
		const char *s = term_safe(text);

		w->bad_oid += strcmp(h, want_hex) != 0;
		w->bad_date += strcmp(d, want_date) != 0;
		w->bad_safe += strcmp(s, want_safe) != 0;
	}
	return NULL;
}

int main(void)
{
	struct worker w[THREADS];
	pthread_t t[THREADS];
	size_t bad_oid = 0, bad_date = 0, bad_safe = 0;
	int i, made = 0;

	memset(w, 0, sizeof(w));
	/* the main thread takes part: its buffers are the static ones */
	for (i = 0; i < THREADS; i++) {
		w[i].n = i;
		if (i && !pthread_create(&t[i], NULL, work, &w[i]))
			made++;
	}
	work(&w[0]);
	for (i = 1; i <= made; i++)
		pthread_join(t[i], NULL);
	is_int(made, THREADS - 1, "%d threads started", THREADS - 1);
	for (i = 0; i < THREADS; i++) {
		bad_oid += w[i].bad_oid;
		bad_date += w[i].bad_date;
		bad_safe += w[i].bad_safe;
	}
	is_int((long long)bad_oid, 0, "oid_short: each thread its own value");
	is_int((long long)bad_date, 0, "repo_date: each thread its own value");
	is_int((long long)bad_safe, 0, "term_safe: each thread its own value");
	return done_testing();
}
