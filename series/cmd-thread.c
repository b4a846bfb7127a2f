// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin thread SOURCE [MSGID] [--json] [--refresh] [--search] [-v]
 *
 * What is in a thread or a mailbox: series, versions, patches, replies
 * per patch and trailers per patch.
 */
#include "series/lorefind.h"
#include "series/mailset.h"
#include "series/trailerdiff.h"
#include "tools/builtin.h"
#include "tools/lib/error.h"
#include "tools/lib/json.h"
#include "tools/lib/options.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const usage[] = {
	"respin thread <source> [<msgid>] [--json] [--refresh] [--search] [-v]",
	"  <source>: an mbox, a maildir, -, lore:<msgid>, notmuch:<query>",
	NULL
};

static const char *day(long long t)
{
	static char buf[16];
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t || !gmtime_r(&tt, &tm))
		return "----------";
	strftime(buf, sizeof(buf), "%Y-%m-%d", &tm);
	return buf;
}

static const char *who(const struct ms_msg *m)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_reset(&sb);
	if (m->from_name && *m->from_name)
		strbuf_addf(&sb, "%s <%s>", term_safe(m->from_name),
			    term_safe(m->from_addr));
	else
		strbuf_addf(&sb, "<%s>", term_safe(m->from_addr));
	return sb.buf;
}

static size_t count_present(const struct ms_version *v)
{
	size_t n = 0;
	long k;

	for (k = 0; k < v->total; k++)
		n += v->patches[k].msg >= 0;
	return n;
}

static size_t count_replies(const struct mailset *ms, long vi)
{
	return ms->versions[vi].nr_replies;
}

static void text_trailers(struct strbuf *out, const struct ms_detail *p,
			  const struct ms_detail *cover)
{
	size_t i;

	for (i = 0; i < p->pm.trailers.nr; i++)
		strbuf_addf(out, "        %s: %s\n",
			    term_safe(p->pm.trailers.items[i].key),
			    term_safe(p->pm.trailers.items[i].value));
	for (i = 0; i < p->reply_trailers.nr; i++)
		strbuf_addf(out, "      + %s: %s\n",
			    term_safe(p->reply_trailers.items[i].key),
			    term_safe(p->reply_trailers.items[i].value));
	for (i = 0; cover && i < cover->reply_trailers.nr; i++)
		strbuf_addf(out, "      + %s: %s (for the series)\n",
			    term_safe(cover->reply_trailers.items[i].key),
			    term_safe(cover->reply_trailers.items[i].value));
}

/* "! report by kernel test robot <lkp@intel.com>: build errors, LINK" */
static void text_reports(struct strbuf *out, const struct ms_detail *p)
{
	size_t i;

	for (i = 0; i < p->bot_reports.nr; i++) {
		const struct bot_report *r = &p->bot_reports.items[i];

		strbuf_addf(out, "      ! report by %s", term_safe(r->who));
		if (r->what)
			strbuf_addf(out, ": %s", term_safe(r->what));
		if (r->link)
			strbuf_addf(out, "%s%s", r->what ? ", " : ": ",
				    term_safe(r->link));
		strbuf_addch(out, '\n');
	}
}

/* "! lost Reviewed-by: X (on v3 2/3, unchanged since)" under patch k */
static void text_lost(struct strbuf *out, const struct trailerdiff *td,
		      long k)
{
	struct strbuf line = STRBUF_INIT;
	size_t i;

	for (i = 0; td && i < td->nr; i++) {
		if (td->items[i].b != (size_t)k)
			continue;
		strbuf_reset(&line);
		trailerdiff_describe(td, &td->items[i], &line);
		strbuf_addf(out, "      ! %s\n", term_safe(line.buf));
	}
	strbuf_release(&line);
}

static void text_replies(struct strbuf *out, const struct mailset *ms,
			 const struct ms_detail *p)
{
	size_t i;

	for (i = 0; i < p->nr_replies; i++) {
		const struct ms_msg *r = &ms->msgs[p->replies[i]];

		strbuf_addf(out, "      reply %s %s <%s>\n", day(r->date),
			    who(r), term_safe(r->msgid));
	}
}

/*
 * What each version of series si lost against the one before it (the
 * first: nothing); its versions are loaded.  Free with lost_free().
 */
static struct trailerdiff *series_lost(const struct mailset *ms, long si)
{
	const struct ms_series *s = &ms->series[si];
	struct trailerdiff *lost = xcalloc(s->nr + 1, sizeof(*lost));
	struct trailerdiff_version prev, cur;
	size_t i;

	trailerdiff_version_init(&prev, 0);
	for (i = 0; i < s->nr; i++) {
		trailerdiff_version_from_mailset(&cur, ms, s->versions[i]);
		if (i)
			trailerdiff_compute(&lost[i], &prev, &cur);
		trailerdiff_version_release(&prev);
		prev = cur;
	}
	trailerdiff_version_release(&prev);
	return lost;
}

static void lost_free(struct trailerdiff *lost, size_t nr)
{
	size_t i;

	for (i = 0; lost && i < nr; i++)
		trailerdiff_release(&lost[i]);
	free(lost);
}

static void text_series(struct strbuf *out, const struct mailset *ms,
			long si, int details, const struct trailerdiff *lost)
{
	const struct ms_series *s = &ms->series[si];
	const struct ms_version *last = &ms->versions[s->versions[s->nr - 1]];
	long by = last->cover, k;
	size_t i;

	/* the author of its last version: the cover, else its first patch */
	for (k = 0; by < 0 && k < last->total; k++)
		by = last->patches[k].msg;
	strbuf_addf(out, "\"%s\" by %s, %zu version%s\n", term_safe(s->title),
		    by >= 0 ? who(&ms->msgs[by]) : "?", s->nr,
		    s->nr == 1 ? "" : "s");
	for (i = 0; i < s->nr; i++) {
		long vi = s->versions[i];
		const struct ms_version *v = &ms->versions[vi];
		long head = v->cover >= 0 ? v->cover : -1;

		for (k = 0; head < 0 && k < v->total; k++)
			head = v->patches[k].msg;
		strbuf_addf(out, "  v%-2d %s  %zu/%d patch%s%s, %zu repl%s  <%s>\n",
			    v->number, day(v->date), count_present(v), v->total,
			    v->total == 1 ? "" : "es",
			    v->cover >= 0 ? " + cover" : ", no cover",
			    count_replies(ms, vi),
			    count_replies(ms, vi) == 1 ? "y" : "ies",
			    head >= 0 ? term_safe(ms->msgs[head].msgid) : "?");
		if (!details)
			continue;
		if (v->cover >= 0) {
			strbuf_addf(out, "    %*d/%d %s\n", v->total >= 10 ? 2 : 1,
				    0, v->total,
				    term_safe(ms->msgs[v->cover].tags.title));
			text_reports(out, v->cover_part.d);
			text_replies(out, ms, v->cover_part.d);
		}
		for (k = 0; k < v->total; k++) {
			const struct ms_patch *p = &v->patches[k];

			if (p->msg < 0) {
				strbuf_addf(out, "    %*ld/%d (missing)\n",
					    v->total >= 10 ? 2 : 1, k + 1,
					    v->total);
				continue;
			}
			strbuf_addf(out, "    %*ld/%d %s", v->total >= 10 ? 2 : 1,
				    k + 1, v->total,
				    term_safe(ms->msgs[p->msg].tags.title));
			if (p->d->has_patch_id)
				strbuf_addf(out, "  [%s]",
					    oid_short(&p->d->patch_id, 12));
			strbuf_addch(out, '\n');
			text_trailers(out, p->d, v->cover >= 0 ?
				      v->cover_part.d : NULL);
			text_lost(out, lost ? &lost[i] : NULL, k);
			text_reports(out, p->d);
			text_replies(out, ms, p->d);
		}
	}
}

static void json_trailers(struct json *j, const char *key,
			  const struct trailer_list *tl)
{
	size_t i;

	json_key(j, key);
	json_array_begin(j);
	for (i = 0; i < tl->nr; i++) {
		json_object_begin(j);
		json_string_member(j, "key", tl->items[i].key);
		json_string_member(j, "value", tl->items[i].value);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_reports(struct json *j, const struct bot_report_list *l)
{
	size_t i;

	json_key(j, "bot_reports");
	json_array_begin(j);
	for (i = 0; i < l->nr; i++) {
		json_object_begin(j);
		json_string_member(j, "from", l->items[i].who);
		json_string_member(j, "what", l->items[i].what);
		json_string_member(j, "link", l->items[i].link);
		json_string_member(j, "message_id", l->items[i].message_id);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_msg(struct json *j, const struct ms_msg *m)
{
	json_string_member(j, "message_id", m->msgid);
	json_string_member(j, "subject", m->subject);
	json_string_member(j, "from", who(m));
	json_int_member(j, "date", m->date);
}

static void json_lost(struct json *j, const struct trailerdiff *td,
		      long k)
{
	size_t i;

	json_key(j, "lost_trailers");
	json_array_begin(j);
	for (i = 0; td && i < td->nr; i++)
		if (td->items[i].b == (size_t)k)
			trailerdiff_lost_json(j, td, &td->items[i]);
	json_array_end(j);
}

static void json_part(struct json *j, const struct mailset *ms,
		      const struct ms_patch *p, int index, int details,
		      const struct trailerdiff *lost)
{
	size_t i;

	json_object_begin(j);
	json_int_member(j, "index", index);
	if (p->msg < 0) {
		json_bool_member(j, "missing", 1);
		json_object_end(j);
		return;
	}
	json_msg(j, &ms->msgs[p->msg]);
	json_string_member(j, "title", ms->msgs[p->msg].tags.title);
	if (details) {
		const struct ms_detail *d = p->d;

		if (d->has_patch_id)
			json_string_member(j, "patch_id",
					   oid_short(&d->patch_id, 40));
		json_trailers(j, "trailers", &d->pm.trailers);
		json_trailers(j, "reply_trailers", &d->reply_trailers);
		if (index > 0)
			json_lost(j, lost, index - 1);
		json_reports(j, &d->bot_reports);
		json_key(j, "replies");
		json_array_begin(j);
		for (i = 0; i < d->nr_replies; i++) {
			json_object_begin(j);
			json_msg(j, &ms->msgs[d->replies[i]]);
			json_object_end(j);
		}
		json_array_end(j);
	}
	json_object_end(j);
}

static void json_series(struct json *j, const struct mailset *ms, long si,
			int details, const struct trailerdiff *lost,
			const struct lore_find *lf)
{
	const struct ms_series *s = &ms->series[si];
	size_t i;
	long k;

	json_object_begin(j);
	json_string_member(j, "title", s->title);
	json_key(j, "versions");
	json_array_begin(j);
	for (i = 0; i < s->nr; i++) {
		const struct ms_version *v = &ms->versions[s->versions[i]];

		json_object_begin(j);
		json_int_member(j, "version", v->number);
		json_int_member(j, "total", v->total);
		json_bool_member(j, "rfc", v->rfc);
		json_int_member(j, "date", v->date);
		json_string_member(j, "change_id", v->change_id);
		json_int_member(j, "replies",
				(int64_t)count_replies(ms, s->versions[i]));
		if (lf)
			json_string_member(j, "found", lore_found_name(
				lore_find_how(lf, ms, s->versions[i])));
		json_key(j, "cover");
		if (v->cover >= 0) {
			/* cover_part.msg is set only once it is loaded */
			struct ms_patch c = v->cover_part;

			c.msg = v->cover;
			json_part(j, ms, &c, 0, details, NULL);
		} else
			json_null(j);
		json_key(j, "patches");
		json_array_begin(j);
		for (k = 0; k < v->total; k++)
			json_part(j, ms, &v->patches[k], (int)k + 1, details,
				  lost ? &lost[i] : NULL);
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

/* The notes to show: about series `only` (every note when -1). */
static size_t count_other_notes(const struct mailset *ms, long only)
{
	size_t i, n = 0;

	for (i = 0; i < ms->nr_notes; i++)
		n += !mailset_note_about(ms, i, only);
	return n;
}

static void notes_to_stderr(const struct mailset *ms, long only)
{
	size_t i, other = count_other_notes(ms, only);

	for (i = 0; i < ms->nr_notes; i++)
		if (mailset_note_about(ms, i, only))
			fprintf(stderr, "note: %s\n",
				term_safe(ms->notes[i].text));
	if (other)
		fprintf(stderr, "note: %zu note%s about other series in %s; "
			"--verbose shows them\n", other, other == 1 ? "" : "s",
			term_safe(mail_source_describe(ms->src)));
}

/* The notes about `only`, then the lines of found (how versions were found). */
static void json_notes(struct json *j, const struct mailset *ms, long only,
		       const char *found)
{
	size_t i;

	json_key(j, "notes");
	json_array_begin(j);
	for (i = 0; i < ms->nr_notes; i++)
		if (mailset_note_about(ms, i, only))
			json_string(j, ms->notes[i].text);
	json_string_lines(j, found);
	json_array_end(j);
	json_int_member(j, "other_notes",
			(int64_t)count_other_notes(ms, only));
}

int cmd_thread(int argc, const char **argv, struct command_context *ctx)
{
	int json = 0, refresh = 0, verbose = 0, search = 0, exit_code, n, r;
	struct option opts[] = {
		OPT_BOOL(0, "json", &json, "print JSON"),
		OPT_BOOL(0, "refresh", &refresh,
			 "fetch lore: threads and searches again, ignoring "
			 "the cache"),
		OPT_BOOL(0, "search", &search,
			 "with lore:MSGID, also find the series' other "
			 "versions with the server's search"),
		OPT_BOOL('v', "verbose", &verbose,
			 "with a Message-ID, notes about other series too"),
		OPT_END()
	};
	struct mail_source *src = NULL;
	struct mailset ms;
	struct lore_find lf;
	struct strbuf out = STRBUF_INIT, found = STRBUF_INIT;
	const char *want = NULL;
	struct trailerdiff *lost = NULL;
	long only = -1;
	size_t i;

	n = command_parse(argc, argv, opts, usage, &exit_code);
	if (n < 0)
		return exit_code;
	if (n < 1 || n > 2)
		return command_usage_error(opts, usage, n ? "too many arguments"
					   : "which mail? give an mbox, a "
					   "maildir, lore:MSGID or notmuch:QUERY");
	if (search && strncmp(argv[0], "lore:", 5))
		return command_usage_error(opts, usage, "--search needs a "
					   "lore:MSGID source");
	if (n == 2)
		want = argv[1];
	else if (!strncmp(argv[0], "lore:", 5))
		want = argv[0] + 5;

	mailset_init(&ms, NULL);
	memset(&lf, 0, sizeof(lf));
	strbuf_init(&lf.notes, 0);
	if (search) {
		struct lore_find_options fo = { 0 };

		fo.refresh = refresh;
		fo.focus = want;
		if (ctx->stderr_is_tty)
			fo.progress = command_progress;
		r = lore_find_open(ctx->repo, argv[0] + 5, &fo, &lf);
		src = lf.src;
		lf.src = NULL;
	} else {
		r = mailset_source_open(ctx->repo, argv[0], refresh, &src);
	}
	if (r < 0)
		goto fail;
	ms.src = src;
	r = mailset_scan(&ms);
	if (r < 0)
		goto fail;
	r = mailset_group(&ms, ms.nr_msgs <= 2000 && !want ?
			  MAILSET_PATCH_IDS : 0, want);
	if (r < 0)
		goto fail;
	if (want) {
		long m = mailset_find(&ms, want);

		if (m < 0) {
			r = error_code(RESPIN_ENOTFOUND, "no message <%s> in %s",
				       want, mail_source_describe(src));
			goto fail;
		}
		only = mailset_series_of(&ms, m);
		if (only < 0) {
			r = error_code(RESPIN_ENOTFOUND, "message <%s> in %s is "
				       "not part of a patch series",
				       want, mail_source_describe(src));
			goto fail;
		}
		for (i = 0; i < ms.series[only].nr; i++) {
			r = mailset_load(&ms, ms.series[only].versions[i]);
			if (r < 0)
				goto fail;
		}
		lost = series_lost(&ms, only);
		if (search)
			lore_find_describe(&lf, &ms, only, &found);
	}
	if (json) {
		struct json j;

		json_init(&j, &out, 1);
		json_object_begin(&j);
		json_string_member(&j, "source", mail_source_describe(src));
		json_int_member(&j, "messages", (int64_t)ms.nr_msgs);
		json_key(&j, "series");
		json_array_begin(&j);
		for (i = 0; i < ms.nr_series; i++)
			if (only < 0 || (long)i == only)
				json_series(&j, &ms, (long)i, only >= 0, lost,
					    search ? &lf : NULL);
		json_array_end(&j);
		json_notes(&j, &ms, verbose ? -1 : only, found.buf);
		json_object_end(&j);
		strbuf_addch(&out, '\n');
	} else {
		for (i = 0; i < ms.nr_series; i++)
			if (only < 0 || (long)i == only)
				text_series(&out, &ms, (long)i, only >= 0,
					    lost);
		if (only < 0)
			strbuf_addf(&out, "%zu series in %zu messages\n",
				    ms.nr_series, ms.nr_msgs);
		notes_to_stderr(&ms, verbose ? -1 : only);
		command_notes(found.buf);
	}
	fwrite(out.buf, 1, out.len, stdout);
	r = 0;
	goto out;
fail:
	r = error_report(r);
out:
	if (lost)
		lost_free(lost, ms.series[only].nr);
	strbuf_release(&out);
	strbuf_release(&found);
	mailset_release(&ms);
	mail_source_free(src);
	lore_find_release(&lf);
	return r;
}
