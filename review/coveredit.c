// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cover text as the author writes it: stored from a file, or
 * through the editor (review/coveredit.h).
 */
#include "review/coveredit.h"
#include "review/changelog.h"
#include "review/cover.h"
#include "review/sendto.h"
#include "series/trailerdiff.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cover_text_store(git_repository *repo, struct series *s,
		     struct series_version *v, struct strbuf *text,
		     int *stored)
{
	struct strbuf old = STRBUF_INIT, msg = STRBUF_INIT;
	int r;

	*stored = 0;
	strbuf_rtrim(text);
	if (!text->len)
		return error("the cover text is empty; nothing changed");
	strbuf_addch(text, '\n');
	r = series_version_text(repo, s, v, SERIES_TEXT_COVER, &old);
	if (r < 0 && r != RESPIN_ENOTFOUND)
		goto out;
	r = 0;
	if (old.len == text->len && !memcmp(old.buf, text->buf, old.len))
		goto out;
	series_version_set_text(v, SERIES_TEXT_COVER, text->buf, text->len);
	strbuf_addf(&msg, "respin cover: %s v%d", s->name, v->number);
	r = series_save(repo, s, NULL, msg.buf);
	*stored = !r;
out:
	strbuf_release(&old);
	strbuf_release(&msg);
	return r;
}

int cover_text_from_file(git_repository *repo, struct series *s,
			 struct series_version *v, const char *file,
			 int *stored)
{
	/* nothing the text lacks is left out, not even what was turned down */
	static const char none[] =
		"# none: the text was given whole (respin cover --file)\n";
	struct strbuf text = STRBUF_INIT;
	int r;

	*stored = 0;
	if (!strcmp(file, "-"))
		r = strbuf_read_fd(&text, 0);
	else
		r = strbuf_read_file(&text, file);
	if (r < 0)
		r = error_errno("cannot read %s",
				strcmp(file, "-") ? file : "standard input");
	else if (!text.len)
		r = error("%s is empty; the cover text is unchanged", file);
	else {
		series_version_set_text(v, SERIES_TEXT_OFFERED, none,
					sizeof(none) - 1);
		r = cover_text_store(repo, s, v, &text, stored);
	}
	strbuf_release(&text);
	return r;
}

void cover_edit_init(struct cover_edit *ed)
{
	strbuf_init(&ed->path, 0);
	strbuf_init(&ed->seed, 0);
	strbuf_init(&ed->offered, 0);
	ed->editor = NULL;
}

void cover_edit_release(struct cover_edit *ed)
{
	strbuf_release(&ed->path);
	strbuf_release(&ed->seed);
	strbuf_release(&ed->offered);
	free(ed->editor);
	ed->editor = NULL;
}

/* What the author must put back, as comments where they write. */
static void add_lost_tags(git_repository *repo, struct series *s,
			  struct series_version *v, struct strbuf *text)
{
	struct trailerdiff td;
	size_t i;

	if (trailerdiff_since_previous(&td, repo, s, v) < 0) {
		warning("cannot compare the tags of %s v%d with the version "
			"before it: %s", s->name, v->number, error_last());
		error_clear();
		trailerdiff_release(&td);
		return;
	}
	if (td.nr)
		strbuf_addf(text, "#\n# Tags lost since v%d (put them back "
			    "in the commits):\n", td.va);
	for (i = 0; i < td.nr; i++) {
		strbuf_addstr(text, "# ");
		trailerdiff_line(&td, i, text);
		strbuf_addch(text, '\n');
	}
	trailerdiff_release(&td);
}

int cover_edit_begin(git_repository *repo, struct series *s,
		     struct series_version *v, struct cover_edit *ed)
{
	struct strbuf text = STRBUF_INIT;
	FILE *f;
	int r = cover_edit_seed(repo, s, v, &text);

	ed->editor = repo_editor(repo);
	if (r < 0)
		goto out;
	/* who respin send would send it to, to edit with the text */
	if (sendto_offer(repo, s, v, &text, &ed->offered) < 0) {
		warning("no recipients to edit: %s", error_last());
		error_clear();
		strbuf_reset(&ed->offered);
	}
	add_lost_tags(repo, s, v, &text);
	strbuf_addf(&ed->path, "%srespin", git_repository_path(repo));
	if (mkdir(ed->path.buf, 0777) < 0 && errno != EEXIST) {
		r = error_errno("cannot make %s", ed->path.buf);
		goto out;
	}
	strbuf_addstr(&ed->path, "/COVER_EDITMSG");
	f = fopen(ed->path.buf, "w");
	if (!f || fwrite(text.buf, 1, text.len, f) != text.len ||
	    fclose(f) != 0) {
		r = error_errno("cannot write %s", ed->path.buf);
		goto out;
	}
	strbuf_add(&ed->seed, text.buf, text.len);
	cover_strip_comments(&ed->seed);
out:
	strbuf_release(&text);
	return r;
}

/* Equal but for white space at the end. */
static int same_text(struct strbuf *a, struct strbuf *b)
{
	strbuf_rtrim(a);
	strbuf_rtrim(b);
	return a->len == b->len && !memcmp(a->buf, b->buf, a->len);
}

int cover_edit_end(git_repository *repo, struct series *s,
		   struct series_version *v, struct cover_edit *ed,
		   int *stored)
{
	struct strbuf text = STRBUF_INIT;
	int r = 0;

	*stored = 0;
	if (strbuf_read_file(&text, ed->path.buf) < 0) {
		r = error_errno("cannot read %s", ed->path.buf);
		goto out;
	}
	cover_strip_comments(&text);
	/* closed without a change: keep what is stored */
	if (!same_text(&text, &ed->seed)) {
		if (ed->offered.len)
			series_version_set_text(v, SERIES_TEXT_OFFERED,
						ed->offered.buf,
						ed->offered.len);
		r = cover_text_store(repo, s, v, &text, stored);
	}
	if (!r)
		unlink(ed->path.buf);
out:
	strbuf_release(&text);
	return r;
}
