// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin send NAME[@vN] [--dry-run [--json]] [--force] [--to ADDR] [--cc ADDR]
 *
 * Sends a version through git send-email (its config, its SMTP
 * settings) to the tree's maintainers, the previous version's
 * recipients and everyone who gave a trailer; records the Message-IDs
 * sent, so that later versions link to it and replies are found.
 */
#include "review/send.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/run.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
	"respin send <name>[@v<n>] [--dry-run [--json]] [--force] [--to <addr>] [--cc <addr>]",
	NULL
};

static void json_who(struct json *j, const char *key, char **who,
		     const char **src, size_t nr)
{
	size_t i;

	json_key(j, key);
	json_array_begin(j);
	for (i = 0; i < nr; i++) {
		json_object_begin(j);
		json_string_member(j, "address", who[i]);
		json_string_member(j, "from", src[i] ? src[i] : "");
		json_object_end(j);
	}
	json_array_end(j);
}

/* --dry-run --json: the mails, who gets them and why. */
static void print_json(const struct series *s, const struct series_version *v,
		       const struct send_job *sj)
{
	const struct format_result *res = &sj->res;
	const struct recipients *rc = &sj->rc;
	struct strbuf out = STRBUF_INIT;
	struct json j;
	size_t i;

	json_init(&j, &out, 1);
	json_object_begin(&j);
	json_string_member(&j, "series", s->name);
	json_int_member(&j, "version", v->number);
	json_key(&j, "mails");
	json_array_begin(&j);
	for (i = 0; i < res->nr; i++) {
		json_object_begin(&j);
		json_string_member(&j, "file", res->mails[i].file_name);
		json_string_member(&j, "message_id", res->mails[i].message_id);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_who(&j, "to", rc->to, rc->to_src, rc->nr_to);
	json_who(&j, "cc", rc->cc, rc->cc_src, rc->nr_cc);
	json_who(&j, "left_out", rc->dropped, rc->dropped_src, rc->nr_dropped);
	json_bool_member(&j, "get_maintainer", sj->so.ran_get_maintainer);
	json_object_end(&j);
	puts(out.buf);
	strbuf_release(&out);
}

/* Who is left out, the tags lost, how many mails to how many. */
static void print_before(const struct series *s, const struct series_version *v,
			 const struct send_job *j)
{
	const struct recipients *rc = &j->rc;
	size_t i;

	for (i = 0; i < rc->nr_dropped; i++)
		fprintf(stderr, "%s v%d: not sent to %s (from %s): deleted "
			"from the cover letter's To:/Cc: lines\n", s->name,
			v->number, term_safe(rc->dropped[i]),
			rc->dropped_src[i] ? rc->dropped_src[i] : "?");
	if (j->so.no_get_maintainer)
		fprintf(stderr, "%s v%d: no scripts/get_maintainer.pl in this "
			"tree: no maintainers or lists from it (--to, --cc, or "
			"respin.series.%s.to/.cc)\n", s->name, v->number,
			s->name);
	warning_lines(j->lost.buf);
	fprintf(stderr, "%s v%d: %zu mail%s to %zu, cc %zu%s\n", s->name,
		v->number, j->res.nr, j->res.nr == 1 ? "" : "s", rc->nr_to,
		rc->nr_cc, j->so.ran_get_maintainer ?
		" (with scripts/get_maintainer.pl)" : "");
}

/* git send-email, in the foreground: its output is the user's. */
static int send_email(const struct send_job *j, int dry_run)
{
	struct send_argv a;
	int r;

	send_argv(j, dry_run, &a);
	fflush(stdout);
	r = run_interactive(a.argv);
	send_argv_release(&a);
	if (r > 0)
		r = error("git send-email exited with %d: nothing recorded "
			  "(some mails may have gone out: check its output)",
			  r);
	return r;
}

int cmd_send(int argc, const char **argv, struct command_context *ctx)
{
	struct send_opts so = { 0 };
	int json = 0, exit_code, n, r;
	struct option opts[] = {
		OPT_BOOL(0, "dry-run", &so.dry_run,
			 "show what would be sent (git send-email --dry-run); "
			 "record nothing"),
		OPT_BOOL(0, "force", &so.force,
			 "send even when checks failed, or again"),
		OPT_STRING(0, "to", &so.to, "addr", "also To this address"),
		OPT_STRING(0, "cc", &so.cc, "addr", "also Cc this address"),
		OPT_BOOL(0, "json", &json,
			 "with --dry-run: who and why as JSON, instead of "
			 "running git send-email"),
		OPT_END()
	};
	struct series s;
	struct series_version *v;
	struct send_job j;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give NAME[@vN]");
	if (json && !so.dry_run)
		return command_usage_error(opts, usage, "--json goes with "
					   "--dry-run: it shows what would "
					   "be sent");
	r = series_load_spec(ctx->repo, argv[0], &s, &v);
	if (r < 0) {
		series_release(&s);	/* it is set up even when it fails */
		return error_report(r);
	}
	so.now = repo_now();
	send_job_init(&j);
	r = send_prepare(ctx->repo, &s, v, &so, &j);
	if (!r && json) {
		print_json(&s, v, &j);
		goto out;
	}
	if (!r) {
		print_before(&s, v, &j);
		r = send_email(&j, so.dry_run);
	}
	if (!r && so.dry_run)
		printf("%s v%d: dry run, nothing sent or recorded\n", s.name,
		       v->number);
	else if (!r)
		r = send_record(ctx->repo, &s, v, &j, so.now);
	if (!r && !so.dry_run)
		printf("%s v%d sent as <%s>\n", s.name, v->number,
		       j.res.mails[0].message_id);
out:
	if (r < 0)
		r = error_report(r);
	send_job_release(&j);
	series_release(&s);
	return r;
}
