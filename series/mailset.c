// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The mail set's frame: opening a source, the set itself, its notes,
 * finding a message, and grouping (series/mailset.h).  The work is in
 * mailsetscan.c (the header scan), mailsetversions.c (messages into
 * versions), mailsetidentity.c and mailsetoverlap.c (versions into
 * series) and mailsetload.c (a version's details on demand).
 */
#include "series/mailsetpriv.h"
#include "patches/mail.h"
#include "tools/lib/config.h"
#include "tools/lib/error.h"
#include "tools/lib/lore.h"
#include "tools/lib/repo.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

int mailset_source_open(git_repository *repo, const char *spec,
			int refresh, struct mail_source **out)
{
	struct mail_source_options o = { 0 };
	struct strbuf cache = STRBUF_INIT;
	char *lore, *nm;
	int r;

	*out = NULL;
	r = config_mail_limits(repo);
	if (r < 0)
		return r;
	lore = repo_lore_url(repo);
	nm = repo_config_string(repo, "respin.notmuch-path", NULL);
	o.lore_url = lore;
	o.notmuch_db = nm;
	o.lore_refresh = !!refresh;
	if (!lore_cache_dir(&cache))
		o.cache_dir = cache.buf;
	else
		error_clear();
	r = mail_source_open(out, spec, &o);
	free(lore);
	free(nm);
	strbuf_release(&cache);
	return r;
}

void mailset_init(struct mailset *ms, struct mail_source *src)
{
	memset(ms, 0, sizeof(*ms));
	ms->src = src;
}

void ms_note_add(struct mailset *ms, long msg, long v, long other,
		 const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	struct ms_note *n;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(ms->notes, ms->nr_notes, ms->alloc_notes);
	n = &ms->notes[ms->nr_notes++];
	n->text = strbuf_detach(&sb, NULL);
	n->msg = msg;
	n->version = v;
	n->other = other;
}

long ms_series_of_version(const struct mailset *ms, long v)
{
	if (v < 0 || (size_t)v >= ms->nr_versions)
		return -1;
	while (ms->versions[v].superseded_by >= 0)
		v = ms->versions[v].superseded_by;
	return ms->versions[v].series;
}

int mailset_note_about(const struct mailset *ms, size_t n, long si)
{
	const struct ms_note *note = &ms->notes[n];

	if (si < 0)
		return 1;
	return ms_series_of_version(ms, note->version) == si ||
	       ms_series_of_version(ms, note->other) == si ||
	       (note->msg >= 0 && mailset_series_of(ms, note->msg) == si);
}

static void patch_release(struct ms_patch *p)
{
	struct ms_detail *d = p->d;

	if (!d)
		return;
	strbuf_release(&d->body);
	patchmail_release(&d->pm);
	free(d->replies);
	trailer_list_release(&d->reply_trailers);
	bot_report_list_release(&d->bot_reports);
	free(d->unreadable);
	free(d);
	p->d = NULL;
}

void mailset_release(struct mailset *ms)
{
	size_t i, k;

	free(ms->msgs);
	mem_pool_release(&ms->strings);
	for (i = 0; i < ms->nr_versions; i++) {
		struct ms_version *v = &ms->versions[i];

		for (k = 0; k < (size_t)v->total; k++)
			patch_release(&v->patches[k]);
		patch_release(&v->cover_part);
		free(v->patches);
		free(v->title);
		free(v->from_addr);
		free(v->change_id);
		free(v->key);
	}
	free(ms->versions);
	for (i = 0; i < ms->nr_series; i++) {
		free(ms->series[i].versions);
		free(ms->series[i].title);
	}
	free(ms->series);
	strmap_release(&ms->by_id);
	for (i = 0; i < ms->nr_notes; i++)
		free(ms->notes[i].text);
	free(ms->notes);
	memset(ms, 0, sizeof(*ms));
}

long mailset_find(const struct mailset *ms, const char *msgid)
{
	struct strbuf id = STRBUF_INIT;
	size_t v;
	int found;

	while (*msgid == ' ' || *msgid == '<')
		msgid++;
	strbuf_addstr(&id, msgid);
	while (id.len && (id.buf[id.len - 1] == '>' || id.buf[id.len - 1] == ' '))
		strbuf_setlen(&id, id.len - 1);
	found = strmap_get(&ms->by_id, id.buf, &v);
	strbuf_release(&id);
	return found ? (long)v : -1;
}

int mailset_raw(struct mailset *ms, long msg, struct strbuf *out)
{
	return mail_source_get(ms->src, ms->msgs[msg].number, out);
}

int mailset_raw_head(struct mailset *ms, long msg, struct strbuf *out)
{
	return mail_source_get_head(ms->src, ms->msgs[msg].number, out);
}

long mailset_series_of(const struct mailset *ms, long msg)
{
	const struct ms_msg *m;
	long v;

	if (msg < 0)
		return -1;
	m = &ms->msgs[msg];
	if (m->kind == MS_REPLY)
		m = m->patch_of >= 0 ? &ms->msgs[m->patch_of] : NULL;
	if (!m || m->version < 0)
		return -1;
	v = m->version;
	while (ms->versions[v].superseded_by >= 0)
		v = ms->versions[v].superseded_by;
	return ms->versions[v].series;
}
