// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/cover.h"
#include "ci/grid.h"
#include "patches/email.h"
#include "review/changelog.h"
#include "review/changes.h"
#include "review/coverresults.h"
#include "review/format.h"
#include "review/stat.h"
#include "review/template.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char cover_default_template[] =
	"${body}\n"
	"\n"
	"${changes}\n"
	"\n"
	"${results}\n"
	"\n"
	"${benchmarks}\n"
	"\n"
	"---\n"
	"${shortlog}\n"
	"${diffstat}\n"
	"---\n"
	"base-commit: ${base_commit}\n"
	"${prerequisites}\n"
	"change-id: ${change_id}\n"
	"\n"
	"Best regards,\n"
	"-- \n"
	"${signature}\n";

void cover_letter_release(struct cover_letter *c)
{
	strbuf_release(&c->subject);
	strbuf_release(&c->body);
}

/* Whether the words of a prefix hold RFC ("RFC PATCH", "PATCH RFC"). */
static int says_rfc(const char *p)
{
	while (*p) {
		size_t n = strcspn(p, " \t");

		if (n == 3 && !strncasecmp(p, "RFC", 3))
			return 1;
		p += n;
		p += strspn(p, " \t");
	}
	return 0;
}

void cover_subject_prefix(git_repository *repo, const struct series *s,
			  const struct series_version *v,
			  const char *override, int rfc, struct strbuf *out)
{
	struct strbuf key = STRBUF_INIT;
	char *conf = NULL;
	const char *p = override;

	if (!p && v && v->subject_prefix && *v->subject_prefix)
		p = v->subject_prefix;
	if (!p) {
		strbuf_addf(&key, "respin.series.%s.subjectPrefix", s->name);
		conf = repo_config_string(repo, key.buf, NULL);
		if (!conf)
			conf = repo_config_string(repo, "respin.subjectPrefix",
						  NULL);
		p = conf && *conf ? conf : "PATCH";
	}
	if (rfc && !says_rfc(p))
		strbuf_addstr(out, "RFC ");
	strbuf_addstr(out, p);
	free(conf);
	strbuf_release(&key);
}

/* The stored cover text of v, parsed; 0 or RESPIN_ENOTFOUND. */
static int version_text(git_repository *repo, const struct series *s,
			const struct series_version *v, struct cover_text *ct)
{
	struct strbuf raw = STRBUF_INIT;
	int r = series_version_text(repo, s, v, SERIES_TEXT_COVER, &raw);

	if (!r && !raw.len)
		r = RESPIN_ENOTFOUND;
	if (!r)
		cover_text_parse(raw.buf, raw.len, ct);
	strbuf_release(&raw);
	return r;
}

/* Index of v in s->versions. */
static size_t version_index(const struct series *s,
			    const struct series_version *v)
{
	return (size_t)(v - s->versions);
}

struct texts {
	struct cover_text *t;	/* per version index, parsed when present */
	int *have;
	size_t nr;
};

static int texts_load(git_repository *repo, const struct series *s,
		      size_t upto, struct texts *tx)
{
	size_t i;

	tx->nr = upto + 1;
	tx->t = xcalloc(tx->nr, sizeof(*tx->t));
	tx->have = xcalloc(tx->nr, sizeof(*tx->have));
	for (i = 0; i < tx->nr; i++) {
		int r = version_text(repo, s, &s->versions[i], &tx->t[i]);

		if (r == 0)
			tx->have[i] = 1;
		else if (r != RESPIN_ENOTFOUND)
			return r;
	}
	return 0;
}

static void texts_release(struct texts *tx)
{
	size_t i;

	for (i = 0; i < tx->nr; i++)
		if (tx->have[i])
			cover_text_release(&tx->t[i]);
	free(tx->t);
	free(tx->have);
}

/* Version k's changelog: the newest text (down to vk's own) that has it. */
static const struct changelog_section *find_section(const struct series *s,
						    const struct texts *tx,
						    int k)
{
	size_t i = tx->nr;

	while (i-- > 0) {
		const struct changelog_section *sec;

		if (s->versions[i].number < k)
			break;
		if (tx->have[i] && (sec = cover_text_section(&tx->t[i], k)))
			return sec;
	}
	return NULL;
}

/*
 * The newest recorded version numbered below k: the one a vk letter
 * compares with and links to, v2 when v3 was never recorded.
 */
static const struct series_version *version_before(const struct series *s,
						   int k)
{
	const struct series_version *best = NULL;
	size_t i;

	for (i = 0; i < s->nr_versions; i++)
		if (s->versions[i].number < k &&
		    (!best || s->versions[i].number > best->number))
			best = &s->versions[i];
	return best;
}

static int version_recorded(const struct series *s, int k)
{
	size_t i;

	for (i = 0; i < s->nr_versions; i++)
		if (s->versions[i].number == k)
			return 1;
	return 0;
}

/* "- Compared with v2 (v3 is not recorded):" */
static void gap_note(struct strbuf *out, int from, int to)
{
	strbuf_addf(out, "- Compared with v%d (v%d", from, from + 1);
	if (to - from > 2)
		strbuf_addf(out, "..v%d", to - 1);
	strbuf_addf(out, " %s not recorded):\n",
		    to - from > 2 ? "are" : "is");
}

/*
 * Every "Changes in vK:" section from v down to v2.  A recorded vK's
 * section links the recorded version before it; v's also says what
 * changed since then, and names that version when it is not v(K-1).
 * A section of a version that is not recorded (the author's own text
 * of it) gets no link: its predecessor is linked once, further up.
 */
static int add_changes(struct strbuf *out, git_repository *repo,
		       const struct series *s, const struct series_version *v,
		       const struct texts *tx, const char *lore_url)
{
	int k;

	for (k = v->number; k >= 2; k--) {
		const struct changelog_section *sec = find_section(s, tx, k);
		const struct series_version *prev = version_recorded(s, k) ?
						    version_before(s, k) : NULL;
		struct strbuf sect = STRBUF_INIT;

		if (sec)
			strbuf_add(&sect, sec->text.buf, sec->text.len);
		if (k == v->number && prev) {
			struct strbuf items = STRBUF_INIT;
			int r = changes_between(repo, s, prev, v, &items);

			if (r < 0) {
				strbuf_release(&items);
				strbuf_release(&sect);
				return r;
			}
			if (items.len && prev->number != k - 1)
				gap_note(&sect, prev->number, k);
			strbuf_add(&sect, items.buf, items.len);
			strbuf_release(&items);
		}
		if (prev && prev->message_id)
			strbuf_addf(&sect, "- Link to v%d: %s/%s/\n",
				    prev->number, lore_url, prev->message_id);
		if (sect.len)
			strbuf_addf(out, "%sChanges in v%d:\n%s",
				    out->len ? "\n" : "", k, sect.buf);
		strbuf_release(&sect);
	}
	return 0;
}

static void add_links(struct strbuf *out, const struct series *s,
		      const struct series_version *v, const char *lore_url)
{
	size_t i;

	for (i = 0; i < s->nr_versions; i++) {
		const struct series_version *old = &s->versions[i];

		if (old->number < v->number && old->message_id)
			strbuf_addf(out, "Link to v%d: %s/%s/\n", old->number,
				    lore_url, old->message_id);
	}
}

/* The results parts, when results are stored for v. */
static int add_results(git_repository *repo, struct series *s,
		       struct series_version *v, struct strbuf *table,
		       struct strbuf *bench)
{
	struct grid_store st;
	struct grid g = { 0 }, pg = { 0 };
	const struct series_version *prev = version_before(s, v->number);
	int r = grid_store_open(repo, &st);

	if (!r)
		r = grid_load_stored(&g, repo, &st, v);
	if (r < 0 || !g.any)
		goto out;
	if (prev && grid_load_stored(&pg, repo, &st, prev) < 0) {
		grid_release(&pg);
		error_clear();
	}
	strbuf_addstr(table, "Results of respin check, at the base and after "
		      "each patch:\n");
	cover_results_table(table, &st.checks, &g);
	cover_bench_tables(bench, &st.checks, &g, pg.any ? &pg : NULL);
	if (bench->len) {
		struct strbuf head = STRBUF_INIT;

		strbuf_addstr(&head, "Benchmarks (mean, standard deviation, "
			      "CoeffVar (the deviation in % of\n"
			      "the mean), Min, Max and runs a side; the "
			      "change against the first column:\n"
			      "* better or worse, its 95% interval excludes "
			      "0; ( ) the same, the interval\n"
			      "lies within the threshold; ? inconclusive, "
			      "with the runs a side needed to\n"
			      "decide");
		if (strstr(bench->buf, "\nOps "))
			strbuf_addstr(&head, "; Ops: the mean /proc/vmstat "
				      "delta a run, * where its 95% "
				      "interval\nexcludes 0");
		strbuf_addstr(&head, "):\n\n");
		strbuf_add(&head, bench->buf, bench->len);
		strbuf_release(bench);
		*bench = head;
	}
out:
	grid_release(&g);
	grid_release(&pg);
	grid_store_close(&st);
	return r;
}

static int load_template(git_repository *repo, const struct cover_options *o,
			 struct strbuf *tmpl, struct strbuf *origin)
{
	char *text, *file;

	if (o->template_text) {
		strbuf_addstr(tmpl, o->template_text);
		strbuf_addstr(origin, o->template_origin ? o->template_origin :
			      "the template");
		return 0;
	}
	text = repo_config_string(repo, "respin.cover.template", NULL);
	if (text) {
		strbuf_addstr(tmpl, text);
		strbuf_addstr(origin, "git config respin.cover.template");
		free(text);
		return 0;
	}
	file = repo_config_string(repo, "respin.cover.templateFile", NULL);
	if (file) {
		int r = strbuf_read_file(tmpl, file);

		if (r < 0)
			r = error_errno("cannot read the cover template %s "
					"(git config respin.cover.templateFile)",
					file);
		else
			strbuf_addf(origin, "%s (respin.cover.templateFile)",
				    file);
		free(file);
		return r < 0 ? r : 0;
	}
	strbuf_addstr(tmpl, cover_default_template);
	strbuf_addstr(origin, "the built-in template");
	return 0;
}

/* The title and body: v's own text, or the nearest earlier one's. */
static const struct cover_text *pick_text(const struct texts *tx)
{
	size_t i = tx->nr;

	while (i-- > 0)
		if (tx->have[i])
			return &tx->t[i];
	return NULL;
}

int cover_build(git_repository *repo, struct series *s,
		struct series_version *v, const struct cover_options *o,
		struct cover_letter *out)
{
	struct texts tx = { 0 };
	const struct cover_text *ct;
	struct strbuf changes = STRBUF_INIT, links = STRBUF_INIT;
	struct strbuf results = STRBUF_INIT, bench = STRBUF_INIT;
	struct strbuf shortlog = STRBUF_INIT, diffstat = STRBUF_INIT;
	struct strbuf sig = STRBUF_INIT, tmpl = STRBUF_INIT;
	struct strbuf origin = STRBUF_INIT, version = STRBUF_INIT;
	struct strbuf npatches = STRBUF_INIT;
	struct email_options eo = { 0 };
	git_signature *gsig = NULL;
	const char *title, *body;
	struct strbuf base = STRBUF_INIT, prereqs = STRBUF_INIT;
	int r;

	strbuf_init(&out->subject, 0);
	strbuf_init(&out->body, 0);
	out->have_text = 0;
	r = texts_load(repo, s, version_index(s, v), &tx);
	if (r < 0)
		goto out;
	ct = pick_text(&tx);
	out->have_text = ct != NULL;
	title = ct && *ct->title ? ct->title : "*** SUBJECT HERE ***";
	body = ct ? ct->body.buf : "*** BLURB HERE ***\n";

	r = add_changes(&changes, repo, s, v, &tx, o->lore_url);
	if (!r && !o->no_results)
		r = add_results(repo, s, v, &results, &bench);
	if (r < 0)
		goto out;
	add_links(&links, s, v, o->lore_url);
	stat_shortlog(&shortlog, repo, v);
	if (series_version_mail_only(v) && tx.have[version_index(s, v)] &&
	    tx.t[version_index(s, v)].diffstat.len)
		/* the sender's own: summing the patches' would overcount */
		strbuf_add(&diffstat, tx.t[version_index(s, v)].diffstat.buf,
			   tx.t[version_index(s, v)].diffstat.len);
	else
		r = stat_diffstat(&diffstat, repo, s, v);
	if (r < 0)
		goto out;
	r = repo_signature(repo, &gsig);
	if (r < 0)
		goto out;
	strbuf_addf(&sig, "%s <%s>", gsig->name, gsig->email);
	format_base_info(repo, v, &base, &prereqs);
	strbuf_addf(&version, "%d", v->number);
	strbuf_addf(&npatches, "%zu", v->nr_patches);

	eo.prefix = o->prefix ? o->prefix : "PATCH";
	eo.version = v->number;
	eo.index = 0;
	eo.total = v->nr_patches;
	email_subject_tag(&out->subject, &eo);
	strbuf_addf(&out->subject, " %s", title);
	{
		struct template_var vars[] = {
			{ "subject", out->subject.buf },
			{ "title", title },
			{ "body", body },
			{ "changes", changes.buf },
			{ "links", links.buf },
			{ "results", results.buf },
			{ "benchmarks", bench.buf },
			{ "shortlog", shortlog.buf },
			{ "diffstat", diffstat.buf },
			{ "base_commit", base.buf },
			{ "prerequisites", prereqs.buf },
			{ "change_id", s->change_id },
			{ "series", s->name },
			{ "version", version.buf },
			{ "patches", npatches.buf },
			{ "signature", sig.buf },
		};

		r = load_template(repo, o, &tmpl, &origin);
		if (!r)
			r = template_expand(tmpl.buf, vars,
					    sizeof(vars) / sizeof(vars[0]),
					    origin.buf, &out->body);
	}
out:
	if (r < 0)
		cover_letter_release(out);
	git_signature_free(gsig);
	texts_release(&tx);
	strbuf_release(&changes);
	strbuf_release(&links);
	strbuf_release(&results);
	strbuf_release(&bench);
	strbuf_release(&shortlog);
	strbuf_release(&diffstat);
	strbuf_release(&sig);
	strbuf_release(&tmpl);
	strbuf_release(&origin);
	strbuf_release(&version);
	strbuf_release(&npatches);
	strbuf_release(&base);
	strbuf_release(&prereqs);
	return r;
}

static const char edit_help[] =
	"# The cover letter of %s v%d.  The first line is the title; then\n"
	"# the text.  Put what changed under \"Changes in v%d:\" as \"- \"\n"
	"# items (older versions keep their own sections).  respin adds\n"
	"# what it knows: new, dropped, moved and reworded patches, code\n"
	"# changes, trailers picked up, links, results.  Lines starting\n"
	"# with '#' are dropped; an empty text changes nothing.\n"
	"# The \"To: \" and \"Cc: \" lines above the title are who respin\n"
	"# send sends it to (get_maintainer.pl, the last version's, the\n"
	"# trailers'): delete a line to leave that address out, add lines\n"
	"# for more.\n";

int cover_edit_seed(git_repository *repo, const struct series *s,
		    const struct series_version *v, struct strbuf *out)
{
	size_t i = version_index(s, v) + 1;
	int r = series_version_text(repo, s, v, SERIES_TEXT_COVER, out);
	if (r == RESPIN_ENOTFOUND) {
		/* start from the nearest earlier text, plus this version's */
		struct strbuf prev = STRBUF_INIT;

		while (i-- > 0 && r == RESPIN_ENOTFOUND) {
			strbuf_reset(&prev);
			r = series_version_text(repo, s, &s->versions[i],
						SERIES_TEXT_COVER, &prev);
		}
		if (r == RESPIN_ENOTFOUND) {
			strbuf_addstr(out, "*** SUBJECT HERE ***\n\n"
				      "*** BLURB HERE ***\n");
			r = 0;
		} else if (!r) {
			struct cover_text ct;

			cover_text_parse(prev.buf, prev.len, &ct);
			strbuf_addf(out, "%s\n\n%s", ct.title, ct.body.buf);
			cover_text_release(&ct);
		}
		if (!r && v->number > 1)
			strbuf_addf(out, "\nChanges in v%d:\n- \n", v->number);
		strbuf_release(&prev);
	}
	if (r < 0)
		return r;
	strbuf_rtrim(out);
	strbuf_addstr(out, "\n\n");
	strbuf_addf(out, edit_help, s->name, v->number, v->number);
	return 0;
}
