// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * respin thread's view of a thread or a mailbox: the mail opened and
 * grouped into series (with lore:, optionally what a search finds of
 * the series' other versions), what each version lost against the one
 * before, and the series as text or JSON.
 */
#include "series/thread.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"
#include "tools/lib/termsafe.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* The mail of spec, searched on lore with o->search. */
static int thread_source(git_repository *repo, const char *spec,
			 const char *want, const struct mail_thread_opts *o,
			 struct mail_thread *t)
{
	struct lore_find_options fo = { 0 };
	int r;

	if (!o->search)
		return mailset_source_open(repo, spec, o->refresh, &t->src);
	fo.refresh = o->refresh;
	fo.focus = want;
	fo.progress = o->progress;
	r = lore_find_open(repo, spec + 5, &fo, &t->lf);
	t->src = t->lf.src;
	t->lf.src = NULL;
	t->searched = 1;
	return r;
}

/* The series message want is in, its versions loaded with o->load. */
static int thread_focus(struct mail_thread *t, const char *want,
			const struct mail_thread_opts *o)
{
	struct mailset *ms = &t->ms;
	long m = mailset_find(ms, want);
	size_t i;
	int r;

	if (m < 0)
		return error_code(RESPIN_ENOTFOUND, "no message <%s> in %s",
				  want, mail_source_describe(t->src));
	t->only = mailset_series_of(ms, m);
	if (t->only < 0)
		return error_code(RESPIN_ENOTFOUND, "message <%s> in %s is not "
				  "part of a patch series", want,
				  mail_source_describe(t->src));
	if (!o->load)
		return 0;
	for (i = 0; i < ms->series[t->only].nr; i++) {
		r = mailset_load(ms, ms->series[t->only].versions[i]);
		if (r < 0)
			return r;
	}
	t->lost = series_lost(ms, t->only);
	if (t->searched)
		lore_find_describe(&t->lf, ms, t->only, &t->found);
	return 0;
}

int mail_thread_open(git_repository *repo, const char *spec,
		     const char *want, const struct mail_thread_opts *o,
		     struct mail_thread *t)
{
	int r;

	memset(t, 0, sizeof(*t));
	mailset_init(&t->ms, NULL);
	strbuf_init(&t->lf.notes, 0);
	strbuf_init(&t->found, 0);
	t->only = -1;
	r = thread_source(repo, spec, want, o, t);
	if (r < 0)
		return r;
	t->ms.src = t->src;
	r = mailset_scan(&t->ms);
	if (!r)
		r = mailset_group(&t->ms, o->patch_ids && !want &&
				  t->ms.nr_msgs <= 2000 ? MAILSET_PATCH_IDS : 0,
				  want);
	if (!r && want)
		r = thread_focus(t, want, o);
	return r;
}

void mail_thread_release(struct mail_thread *t)
{
	if (t->lost)
		lost_free(t->lost, t->ms.series[t->only].nr);
	strbuf_release(&t->found);
	mailset_release(&t->ms);
	mail_source_free(t->src);
	lore_find_release(&t->lf);
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
			if (ms->msgs[p->msg].version != vi &&
			    ms->msgs[p->msg].version >= 0)
				strbuf_addf(out, "  (from v%d <%s>)",
					    ms->versions[ms->msgs[p->msg].version].number,
					    term_safe(ms->msgs[p->msg].msgid));
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

void mail_thread_text(const struct mail_thread *t, struct strbuf *out)
{
	const struct mailset *ms = &t->ms;
	size_t i;

	for (i = 0; i < ms->nr_series; i++)
		if (t->only < 0 || (long)i == t->only)
			text_series(out, ms, (long)i, t->only >= 0, t->lost);
	if (t->only < 0)
		strbuf_addf(out, "%zu series in %zu messages\n", ms->nr_series,
			    ms->nr_msgs);
}

void mail_thread_json(const struct mail_thread *t, int all_notes,
		      struct strbuf *out)
{
	const struct mailset *ms = &t->ms;
	struct json j;
	size_t i;

	json_init(&j, out, 1);
	json_object_begin(&j);
	json_string_member(&j, "source", mail_source_describe(t->src));
	json_int_member(&j, "messages", (int64_t)ms->nr_msgs);
	json_key(&j, "series");
	json_array_begin(&j);
	for (i = 0; i < ms->nr_series; i++)
		if (t->only < 0 || (long)i == t->only)
			json_series(&j, ms, (long)i, t->only >= 0, t->lost,
				    t->searched ? &t->lf : NULL);
	json_array_end(&j);
	json_notes(&j, ms, all_notes ? -1 : t->only, t->found.buf);
	json_object_end(&j);
	strbuf_addch(out, '\n');
}

size_t mail_thread_notes(const struct mail_thread *t, int all_notes,
			 struct strbuf *notes)
{
	const struct mailset *ms = &t->ms;
	long only = all_notes ? -1 : t->only;
	size_t i;

	for (i = 0; i < ms->nr_notes; i++)
		if (mailset_note_about(ms, i, only))
			strbuf_addf(notes, "%s\n", ms->notes[i].text);
	return count_other_notes(ms, only);
}
