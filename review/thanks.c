// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/thanks.h"
#include "review/drafts.h"
#include "review/reply.h"
#include "series/mailset.h"
#include "series/treescan.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>

int thanks_find(git_repository *repo, const char *branch,
		const struct series_version *v, size_t max_commits,
		git_oid *commits, size_t *walked)
{
	git_object *tip = NULL;
	unsigned *ev = xcalloc(v->nr_patches + 1, sizeof(*ev));
	git_oid mb;
	char hex[GIT_OID_HEXSZ + 1];
	int r, have_mb = 0;

	*walked = 0;
	if (git_revparse_single(&tip, repo, branch) < 0) {
		free(ev);
		return error_code(RESPIN_ENOTFOUND, "no branch or commit '%s' "
				  "in this repository", branch);
	}
	if (!git_oid_is_zero(&v->base) &&
	    !git_merge_base(&mb, repo, git_object_id(tip), &v->base)) {
		git_oid_tostr(hex, sizeof(hex), &mb);
		have_mb = 1;
	}
	git_error_clear();
	/* as respin tree finds it: patch-id, Link:, title and author */
	r = tree_scan_version(repo, branch, have_mb ? hex : NULL,
			      have_mb ? 0 : max_commits, v, commits, ev,
			      walked);
	free(ev);
	git_object_free(tip);
	return r;
}

void thanks_text(struct strbuf *out, const struct series_version *v,
		 const git_oid *commits, size_t only, const char *branch,
		 const char *name, const char *addr)
{
	size_t i, n = v->nr_patches;

	strbuf_addf(out, "Applied to %s, thanks!\n\n", branch);
	for (i = 0; i < n; i++) {
		if (only && i + 1 != only)
			continue;
		if (n > 1)
			strbuf_addf(out, "[%zu/%zu] %s\n", i + 1, n,
				    v->patches[i].subject);
		else
			strbuf_addf(out, "[1/1] %s\n", v->patches[i].subject);
		if (git_oid_is_zero(&commits[i]))
			strbuf_addf(out, "      (not in %s)\n", branch);
		else
			strbuf_addf(out, "      commit: %s\n",
				    oid_short(&commits[i], 12));
	}
	strbuf_addstr(out, "\nBest regards,\n-- \n");
	if (name && *name)
		strbuf_addf(out, "%s <%s>\n", name, addr);
	else
		strbuf_addf(out, "%s\n", addr);
}

/* ---- respin thanks ---- */

void thanks_init(struct thanks *t)
{
	memset(t, 0, sizeof(*t));
	strbuf_init(&t->drafts, 0);
}

void thanks_release(struct thanks *t)
{
	free(t->commits);
	strbuf_release(&t->drafts);
	memset(t, 0, sizeof(*t));
}

/* One draft answering msgid, appended to out. */
static int one_draft(struct mailset *ms, const char *msgid,
		     struct reply_options *ro, struct strbuf *out)
{
	struct strbuf raw = STRBUF_INIT, id = STRBUF_INIT;
	struct mail_where w;
	long m = mailset_find(ms, msgid);
	int r;

	if (m < 0)
		return error_code(RESPIN_ENOTFOUND, "no message <%s> in %s: "
				  "give the mail with --source", msgid,
				  mail_source_describe(ms->src));
	r = mailset_raw(ms, m, &raw);
	if (!r) {
		w.path = mail_source_name(ms->src);
		w.number = ms->msgs[m].number;
		reply_make_message_id(&id, ro->from_addr, ro->date);
		ro->message_id = id.buf;
		r = reply_draft(out, raw.buf, raw.len, &w, ro, NULL);
		ro->message_id = NULL;
	}
	strbuf_release(&raw);
	strbuf_release(&id);
	return r;
}

/* Answering the cover letter (not the first patch) when there is one. */
static int to_cover(git_repository *repo, const struct series *s,
		    const struct series_version *v)
{
	struct strbuf cover = STRBUF_INIT;
	int has_cover = v->nr_patches > 1 ||
		series_version_text(repo, s, v, SERIES_TEXT_COVER, &cover) == 0;

	strbuf_release(&cover);
	return has_cover && (!v->nr_patches || !v->patches[0].message_id ||
			     strcmp(v->patches[0].message_id,
				    v->message_id));
}

/* The drafts, a NUL after each, from the version's mail in ms. */
static int make_drafts(const struct series *s,
		       const struct series_version *v,
		       const struct thanks_opts *o, struct mailset *ms,
		       struct thanks *t)
{
	struct reply_options ro = { 0 };
	struct strbuf text = STRBUF_INIT;
	size_t i;
	int r = 0;

	ro.from_name = o->name;
	ro.from_addr = o->addr;
	ro.date = o->date;
	ro.quote_max = 3;
	/* no cover letter: each applied patch gets its own */
	for (i = t->to_cover ? v->nr_patches : 0; i < v->nr_patches; i++) {
		if (git_oid_is_zero(&t->commits[i]))
			continue;
		if (!v->patches[i].message_id) {
			r = error("%zu/%zu of %s v%d has no Message-ID", i + 1,
				  v->nr_patches, s->name, v->number);
			break;
		}
		strbuf_reset(&text);
		thanks_text(&text, v, t->commits, i + 1, o->branch, o->name,
			    o->addr);
		ro.block = text.buf;
		r = one_draft(ms, v->patches[i].message_id, &ro, &t->drafts);
		if (r < 0)
			break;
		strbuf_addch(&t->drafts, '\0');
		t->nr_drafts++;
	}
	if (t->to_cover) {
		thanks_text(&text, v, t->commits, 0, o->branch, o->name,
			    o->addr);
		ro.block = text.buf;
		r = one_draft(ms, v->message_id, &ro, &t->drafts);
		t->nr_drafts = r < 0 ? 0 : 1;
	}
	strbuf_release(&text);
	return r;
}

int thanks_make(git_repository *repo, struct series *s,
		struct series_version *v, const struct thanks_opts *o,
		struct thanks *t)
{
	struct mail_source *src = NULL;
	struct mailset ms;
	struct strbuf spec = STRBUF_INIT;
	int found, r;

	if (!o->addr || !strchr(o->addr, '@')) {
		error("who is thanking? user.email is not set");
		error_hint("git config --global user.email you@example.org");
		return RESPIN_ERR;
	}
	if (!v->message_id)
		return error("%s v%d has no Message-IDs: it was not imported "
			     "from mail, so there is no mail to answer",
			     s->name, v->number);
	t->commits = xcalloc(v->nr_patches + 1, sizeof(*t->commits));
	found = thanks_find(repo, o->branch, v, o->max_commits, t->commits,
			    &t->walked);
	if (found < 0)
		return found;
	t->found = (size_t)found;
	if (!found)
		return error("none of the %zu patches of %s v%d is in %s (by "
			     "patch-id, Link: or title and author, %zu commits "
			     "read)", v->nr_patches,
			     s->name, v->number, o->branch, t->walked);
	if (!o->source)
		strbuf_addf(&spec, "lore:%s", v->message_id);
	mailset_init(&ms, NULL);
	r = mailset_source_open(repo, o->source ? o->source : spec.buf, 0,
				&src);
	ms.src = src;
	if (!r)
		r = mailset_scan(&ms);
	t->to_cover = to_cover(repo, s, v);
	if (!r)
		r = make_drafts(s, v, o, &ms, t);
	mailset_release(&ms);
	mail_source_free(src);
	strbuf_release(&spec);
	return r;
}

int thanks_write(const struct thanks *t, const char *mbox,
		 const char *maildir, int64_t when, struct strbuf *out)
{
	const char *p = t->drafts.buf, *end = t->drafts.buf + t->drafts.len;
	int r = 0;

	if (t->to_cover)
		return drafts_write(mbox, maildir, t->drafts.buf,
				    t->drafts.len, when, NULL, out);
	for (; p < end && !r; p += strlen(p) + 1) {
		size_t len = strlen(p);

		if (maildir)
			r = drafts_write(NULL, maildir, p, len, when, NULL,
					 out);
		else if (mbox)
			/* each on its own: the mbox said once below */
			r = drafts_mbox_append(mbox, p, len);
		else
			strbuf_addf(out, "From mboxrd@z Thu Jan  1 00:00:00 "
				    "1970\n%s\n", p);
	}
	if (!r && mbox)
		strbuf_addf(out, "%zu draft%s appended to %s\n", t->nr_drafts,
			    t->nr_drafts == 1 ? "" : "s", mbox);
	return r;
}
