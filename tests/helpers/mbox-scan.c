// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mbox-scan: reads an mbox (or maildir) with the patches/ reader and
 * prints the message count and the elapsed time, for benchmarks.
 *
 *	mbox-scan [--headers] [--full] PATH
 *
 * --headers also scans every message's headers (the scan path);
 * --full also parses every message with GMime (the slow path).
 * Output: "messages N\nelapsed_ms M\n" (plus "failures F" with --full).
 */
#include "patches/mail.h"
#include "patches/mbox.h"
#include "tools/lib/error.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	int headers = 0, full = 0, r, i;
	const char *path = NULL;
	size_t failures = 0, bytes = 0, ids = 0;
	struct mbox_msg msg;
	struct mbox *mb;
	double t0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--headers"))
			headers = 1;
		else if (!strcmp(argv[i], "--full"))
			headers = full = 1;
		else if (!path && argv[i][0] != '-')
			path = argv[i];
		else {
			fprintf(stderr, "usage: mbox-scan [--headers] [--full] PATH\n");
			return 129;
		}
	}
	if (!path) {
		fprintf(stderr, "usage: mbox-scan [--headers] [--full] PATH\n");
		return 129;
	}
	t0 = now_ms();
	if (mbox_open(&mb, path, MBOX_AUTO) < 0)
		return error_report(-1);
	while ((r = mbox_next(mb, &msg)) > 0) {
		struct mail_where where = { path, msg.number };
		struct mail_header h;

		bytes += msg.len;
		if (!headers)
			continue;
		mail_header_init(&h);
		if (mail_header_scan(&h, msg.data, msg.len, &where) < 0) {
			failures++;
			fprintf(stderr, "message %zu: %s\n", msg.number,
				error_last());
		} else if (h.message_id) {
			ids++;
		}
		if (full) {
			struct mail_body b;

			mail_body_init(&b);
			if (mail_body_parse(&b, msg.data, msg.len, &where) < 0) {
				failures++;
				fprintf(stderr, "%s\n", error_last());
			}
			mail_body_release(&b);
		}
		mail_header_release(&h);
	}
	printf("messages %zu\n", mbox_count(mb));
	printf("elapsed_ms %.1f\n", now_ms() - t0);
	if (headers)
		printf("message_ids %zu\n", ids);
	if (full)
		printf("failures %zu\n", failures);
	(void)bytes;
	mbox_free(mb);
	if (r < 0)
		return error_report(r);
	return failures ? 1 : 0;
}
