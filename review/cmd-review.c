// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin review NAME[@vN] [--source SOURCE] [--json]
 * respin review NAME[@vN] --done MSGID[:N]
 *
 * Every reply to a version, per patch and for the cover letter: the
 * review comments (what the reviewer wrote, with the lines it answers)
 * and the trailers; each comment open, answered (the author replied
 * under it) or addressed (the next version changed that part, or the
 * author marked it done).
 */
#include "review/review.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const usage[] = {
	"respin review <name>[@v<n>] [--source <source>] [--json]",
	"respin review <name>[@v<n>] --done <msgid>[:<n>] [--source <source>]",
	NULL
};

static void indent_lines(struct strbuf *out, const char *pfx, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		const char *q = p, *tab;

		/* code keeps its tabs; the rest is made safe */
		strbuf_addstr(out, pfx);
		while ((tab = memchr(q, '\t', n - (size_t)(q - p)))) {
			char *part = xstrndup(q, (size_t)(tab - q));

			strbuf_addf(out, "%s\t", term_safe(part));
			free(part);
			q = tab + 1;
		}
		{
			char *part = xstrndup(q, n - (size_t)(q - p));

			strbuf_addf(out, "%s\n", term_safe(part));
			free(part);
		}
		p += n + (nl ? 1 : 0);
	}
}

/* The last n lines of a quote (what a comment answers most nearly). */
#define QUOTE_SHOWN 6
static void quote_tail(struct strbuf *out, const char *quote, size_t n)
{
	const char *p = quote + strlen(quote);
	size_t k = 0;

	while (p > quote && p[-1] == '\n')
		p--;
	while (p > quote && k < n) {
		p--;
		while (p > quote && p[-1] != '\n')
			p--;
		k++;
	}
	if (p > quote)
		strbuf_addstr(out, "      > [...]\n");
	indent_lines(out, "      > ", p);
}

static void print_text(const struct series *s, const struct series_version *v,
		       const struct review *rv, struct strbuf *out)
{
	size_t i, k, t, n[4] = { 0 }, ntr = 0, nbot = 0, last = (size_t)-1;

	for (i = 0; i < rv->nr; i++) {
		for (k = 0; k < rv->items[i].comments.nr; k++)
			n[rv->items[i].states[k]]++;
		ntr += rv->items[i].trailers.nr;
		nbot += rv->items[i].bots.nr;
	}
	strbuf_addf(out, "%s v%d: %zu comment%s (%zu open, %zu answered, %zu "
		    "addressed, %zu done), %zu trailer%s\n", s->name, v->number,
		    n[0] + n[1] + n[2] + n[3], n[0] + n[1] + n[2] + n[3] == 1 ?
		    "" : "s", n[REVIEW_OPEN], n[REVIEW_ANSWERED],
		    n[REVIEW_ADDRESSED], n[REVIEW_DONE], ntr, ntr == 1 ? "" : "s");
	if (nbot) {
		strbuf_setlen(out, out->len - 1);
		strbuf_addf(out, ", %zu bot report%s\n", nbot,
			    nbot == 1 ? "" : "s");
	}
	for (i = 0; i < rv->nr; i++) {
		const struct review_reply *rr = &rv->items[i];
		const struct ms_msg *m = &rv->ms.msgs[rr->msg];

		if (!rr->comments.nr && !rr->trailers.nr && !rr->bots.nr)
			continue;
		t = rr->target;
		if (t != last) {
			if (t)
				strbuf_addf(out, "%zu/%zu %s\n", t, v->nr_patches,
					    t <= v->nr_patches ?
					    term_safe(v->patches[t - 1].subject) : "");
			else
				strbuf_addstr(out, "0 (cover letter)\n");
			last = t;
		}
		for (k = 0; k < rr->comments.nr; k++) {
			const struct comment *c = &rr->comments.items[k];

			strbuf_addf(out, "  [%s:%zu] %s", term_safe(m->msgid),
				    k + 1, review_state_name(rr->states[k]));
			if (rr->why[k])
				strbuf_addf(out, " (%s)", term_safe(rr->why[k]));
			strbuf_addf(out, "  %s <%s> %s\n", term_safe(m->from_name),
				    term_safe(m->from_addr), repo_date(m->date));
			if (c->file)
				strbuf_addf(out, "      %s%s%s\n", term_safe(c->file),
					    c->hunk ? " " : "",
					    c->hunk ? term_safe(c->hunk) : "");
			quote_tail(out, c->quote.buf, QUOTE_SHOWN);
			indent_lines(out, "      ", c->text.buf);
		}
		for (k = 0; k < rr->bots.nr; k++) {
			const struct bot_report *b = &rr->bots.items[k];

			strbuf_addf(out, "  ! report by %s", term_safe(b->who));
			if (b->what)
				strbuf_addf(out, ": %s", term_safe(b->what));
			if (b->link)
				strbuf_addf(out, ", %s", term_safe(b->link));
			strbuf_addf(out, "  (<%s>)\n", term_safe(m->msgid));
		}
		for (k = 0; k < rr->trailers.nr; k++)
			strbuf_addf(out, "  %s: %s  (<%s>)\n",
				    term_safe(rr->trailers.items[k].key),
				    term_safe(rr->trailers.items[k].value),
				    term_safe(m->msgid));
	}
}

static void print_json(const struct series *s, const struct series_version *v,
		       const struct review *rv, struct strbuf *out)
{
	struct json j;
	size_t i, k;

	json_init(&j, out, 1);
	json_object_begin(&j);
	json_string_member(&j, "series", s->name);
	json_int_member(&j, "version", v->number);
	json_key(&j, "replies");
	json_array_begin(&j);
	for (i = 0; i < rv->nr; i++) {
		const struct review_reply *rr = &rv->items[i];
		const struct ms_msg *m = &rv->ms.msgs[rr->msg];

		json_object_begin(&j);
		json_string_member(&j, "message_id", m->msgid);
		json_string_member(&j, "from", m->from_addr);
		json_string_member(&j, "name", m->from_name);
		json_int_member(&j, "date", m->date);
		json_int_member(&j, "patch", (int64_t)rr->target);
		json_key(&j, "comments");
		json_array_begin(&j);
		for (k = 0; k < rr->comments.nr; k++) {
			const struct comment *c = &rr->comments.items[k];

			json_object_begin(&j);
			json_int_member(&j, "index", (int64_t)k + 1);
			json_string_member(&j, "state",
					   review_state_name(rr->states[k]));
			json_string_member(&j, "why", rr->why[k]);
			json_string_member(&j, "file", c->file);
			json_string_member(&j, "hunk", c->hunk);
			json_string_member(&j, "quote", c->quote.buf);
			json_string_member(&j, "text", c->text.buf);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_key(&j, "bot_reports");
		json_array_begin(&j);
		for (k = 0; k < rr->bots.nr; k++) {
			json_object_begin(&j);
			json_string_member(&j, "who", rr->bots.items[k].who);
			json_string_member(&j, "what", rr->bots.items[k].what);
			json_string_member(&j, "link", rr->bots.items[k].link);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_key(&j, "trailers");
		json_array_begin(&j);
		for (k = 0; k < rr->trailers.nr; k++) {
			json_object_begin(&j);
			json_string_member(&j, "key", rr->trailers.items[k].key);
			json_string_member(&j, "value", rr->trailers.items[k].value);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	strbuf_addch(out, '\n');
}

int cmd_review(int argc, const char **argv, struct command_context *ctx)
{
	int json = 0, refresh = 0, exit_code, n, r;
	const char *source = NULL, *done_spec = NULL;
	struct option opts[] = {
		OPT_STRING(0, "source", &source, "source",
			   "where the replies are (default: where the version "
			   "came from, else lore)"),
		OPT_STRING(0, "done", &done_spec, "msgid[:n]",
			   "mark a comment (or all of a reply's) done"),
		OPT_BOOL(0, "json", &json, "print JSON"),
		OPT_BOOL(0, "refresh", &refresh,
			 "fetch lore: threads again, ignoring the cache"),
		OPT_END()
	};
	struct series s;
	struct series_version *v;
	struct review rv;
	struct strbuf out = STRBUF_INIT;
	char *id = NULL;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n != 1)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which series? give NAME[@vN]");
	r = series_load_spec(ctx->repo, argv[0], &s, &v);
	if (r < 0) {
		series_release(&s);	/* it is set up even when it fails */
		return error_report(r);
	}
	review_init(&rv);
	r = review_load(ctx->repo, &s, v, source, refresh, &rv);
	if (!r && done_spec)
		r = review_mark_done(ctx->repo, &s, v, &rv, done_spec, &id);
	if (r < 0) {
		r = error_report(r);
	} else if (done_spec) {
		const char *colon = strrchr(done_spec, ':');

		printf("%s v%d: <%s>%s%s marked done\n", s.name, v->number, id,
		       colon ? ":" : "", colon ? colon + 1 : "");
	} else {
		if (json)
			print_json(&s, v, &rv, &out);
		else
			print_text(&s, v, &rv, &out);
		fwrite(out.buf, 1, out.len, stdout);
	}
	free(id);
	review_release(&rv);
	series_release(&s);
	strbuf_release(&out);
	return r;
}
