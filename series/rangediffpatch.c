// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A patch as git range-diff compares it: its message indented under
 * " ## Commit message ##", then its diff file by file under " ## PATH
 * ##" headers with the hunks' lines, as git writes them.
 */
#include "series/rangediff.h"
#include "patches/patch.h"
#include "series/lsa.h"
#include "tools/lib/error.h"
#include "tools/lib/hash.h"
#include "tools/lib/repo.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int is_blank(const char *s, size_t len)
{
	while (len--)
		if (!isspace((unsigned char)*s++))
			return 0;
	return 1;
}

/*
 * One line of the commit message as git log --pretty=medium prints it
 * (four spaces in, tabs expanded to columns of eight) and range-diff
 * then keeps it (trailing white space dropped; a blank line stays
 * empty).
 */
static void add_message_line(struct strbuf *sb, const char *line, size_t len)
{
	size_t start = sb->len, col = 0, i;

	strbuf_addstr(sb, "    ");
	for (i = 0; i < len; i++) {
		unsigned char c = line[i];

		if (c == '\t') {
			size_t n = 8 - col % 8;

			strbuf_addchars(sb, ' ', n);
			col += n;
			continue;
		}
		strbuf_addch(sb, c);
		if ((c & 0xc0) != 0x80)
			col++;
	}
	while (sb->len > start && isspace((unsigned char)sb->buf[sb->len - 1]))
		sb->len--;
	strbuf_setlen(sb, sb->len);
	strbuf_addch(sb, '\n');
}

static void add_message(struct strbuf *sb, const char *msg)
{
	int leading = 1;

	while (*msg) {
		const char *eol = strchr(msg, '\n');
		size_t len = eol ? (size_t)(eol - msg) : strlen(msg);

		if (!leading || !is_blank(msg, len)) {
			leading = 0;
			add_message_line(sb, msg, len);
		}
		msg += len + (eol ? 1 : 0);
	}
}

/* The first paragraph of a message on one line, as git's oneline. */
static char *message_subject(const char *msg)
{
	struct strbuf sb = STRBUF_INIT;

	while (*msg) {
		const char *eol = strchr(msg, '\n');
		size_t len = eol ? (size_t)(eol - msg) : strlen(msg);

		if (is_blank(msg, len)) {
			if (sb.len)
				break;
		} else {
			while (len && isspace((unsigned char)msg[len - 1]))
				len--;
			if (sb.len)
				strbuf_addch(&sb, ' ');
			strbuf_add(&sb, msg, len);
		}
		msg += len;
		while (*msg && *msg != '\n')
			msg++;
		if (*msg)
			msg++;
	}
	return strbuf_detach(&sb, NULL);
}

/* Appends one line of the diff part and counts it. */
static void add_diff_line(struct rangediff_patch *p, struct strbuf *sb,
			  char sign, const char *s, size_t len)
{
	if (len && s[len - 1] == '\n')
		len--;
	strbuf_addch(sb, sign);
	strbuf_add(sb, s, len);
	strbuf_addch(sb, '\n');
	p->diffsize++;
}

static int add_file(struct rangediff_patch *p, struct strbuf *sb,
		    git_patch *patch)
{
	const git_diff_delta *d = git_patch_get_delta(patch);
	const char *name = d->new_file.path;
	size_t h, nr_hunks = git_patch_num_hunks(patch);

	strbuf_addch(sb, '\n');
	if (!p->diff_offset)
		p->diff_offset = sb->len;
	strbuf_addstr(sb, " ## ");
	switch (d->status) {
	case GIT_DELTA_ADDED:
		strbuf_addf(sb, "%s (new)", d->new_file.path);
		break;
	case GIT_DELTA_DELETED:
		strbuf_addf(sb, "%s (deleted)", d->old_file.path);
		name = d->old_file.path;
		break;
	case GIT_DELTA_RENAMED:
		strbuf_addf(sb, "%s => %s", d->old_file.path,
			    d->new_file.path);
		break;
	default:
		strbuf_addstr(sb, d->new_file.path);
	}
	if (d->status != GIT_DELTA_ADDED && d->status != GIT_DELTA_DELETED &&
	    d->old_file.mode && d->new_file.mode &&
	    d->old_file.mode != d->new_file.mode)
		strbuf_addf(sb, " (mode change %06o => %06o)",
			    d->old_file.mode, d->new_file.mode);
	strbuf_addstr(sb, " ##\n");
	p->diffsize++;

	if (d->flags & GIT_DIFF_FLAG_BINARY) {
		strbuf_addf(sb, " Binary files %s and %s differ\n",
			    d->status == GIT_DELTA_ADDED ? "/dev/null" :
			    d->old_file.path,
			    d->status == GIT_DELTA_DELETED ? "/dev/null" :
			    d->new_file.path);
		p->diffsize++;
		return 0;
	}

	for (h = 0; h < nr_hunks; h++) {
		const git_diff_hunk *hunk;
		size_t l, nr_lines;
		const char *func;
		size_t funclen;

		if (git_patch_get_hunk(&hunk, &nr_lines, patch, h) < 0)
			return error_git("cannot read a hunk of %s", name);
		/* "@@ -a,b +c,d @@ func": keep " func" */
		func = memchr(hunk->header + 2, '@', hunk->header_len > 2 ?
			      hunk->header_len - 2 : 0);
		if (func && (size_t)(func - hunk->header) + 1 <
		    hunk->header_len && func[1] == '@') {
			func += 2;
			funclen = hunk->header_len -
				  (size_t)(func - hunk->header);
			while (funclen && (func[funclen - 1] == '\n' ||
					   func[funclen - 1] == '\r'))
				funclen--;
		} else {
			func = "";
			funclen = 0;
		}
		strbuf_addstr(sb, "@@");
		if (funclen)
			strbuf_addf(sb, " %s:%.*s", name, (int)funclen, func);
		strbuf_addch(sb, '\n');
		p->diffsize++;

		for (l = 0; l < nr_lines; l++) {
			const git_diff_line *line;

			if (git_patch_get_line_in_hunk(&line, patch, h, l) < 0)
				return error_git("cannot read a line of %s",
						 name);
			switch (line->origin) {
			case GIT_DIFF_LINE_CONTEXT:
			case GIT_DIFF_LINE_ADDITION:
			case GIT_DIFF_LINE_DELETION:
				add_diff_line(p, sb, line->origin,
					      line->content,
					      line->content_len);
				break;
			case GIT_DIFF_LINE_CONTEXT_EOFNL:
			case GIT_DIFF_LINE_ADD_EOFNL:
			case GIT_DIFF_LINE_DEL_EOFNL:
				add_diff_line(p, sb, ' ',
					      "\\ No newline at end of file",
					      28);
				break;
			default:
				break;
			}
		}
	}
	return 0;
}

int rangediff_patch_build(struct rangediff_patch *p, const char *label,
			  const char *author, const char *message,
			  git_diff *diff)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, nr = diff ? git_diff_num_deltas(diff) : 0;
	int r = 0;

	p->label = xstrdup(label ? label : "-------");
	p->subject = message_subject(message ? message : "");
	p->diff_offset = 0;
	p->diffsize = 0;

	strbuf_grow(&sb, 4096);
	strbuf_addf(&sb, " ## Metadata ##\nAuthor: %s\n\n"
		    " ## Commit message ##\n", author ? author : "");
	add_message(&sb, message ? message : "");
	for (i = 0; i < nr && !r; i++) {
		git_patch *patch;

		if (git_patch_from_diff(&patch, diff, i) < 0) {
			r = error_git("cannot make the patch of %s",
				      p->label);
			break;
		}
		if (patch)
			r = add_file(p, &sb, patch);
		git_patch_free(patch);
	}
	p->len = sb.len;
	p->text = strbuf_detach(&sb, NULL);
	p->diff_hash = fnv1a32(FNV1A32_INIT, p->text + p->diff_offset,
			       p->len - p->diff_offset);
	return r;
}

int rangediff_patch_from_commit(git_repository *repo, git_commit *commit,
				const git_mailmap *mailmap,
				struct rangediff_patch *p)
{
	const git_oid *oid = git_commit_id(commit);
	git_signature *sig = NULL;
	git_buf abbrev = GIT_BUF_INIT;
	git_diff *diff = NULL;
	struct strbuf author = STRBUF_INIT;
	int r;

	memset(p, 0, sizeof(*p));
	git_oid_cpy(&p->oid, oid);
	if (patch_commit_diff(repo, commit, &diff) < 0)
		return -1;
	if (git_commit_author_with_mailmap(&sig, commit, mailmap) < 0) {
		git_diff_free(diff);
		return error_git("cannot read the author of %s",
				 oid_short(oid, 12));
	}
	strbuf_addf(&author, "%s <%s>", sig->name, sig->email);
	git_signature_free(sig);

	if (git_object_short_id(&abbrev, (const git_object *)commit) < 0)
		git_buf_dispose(&abbrev);
	r = rangediff_patch_build(p, abbrev.ptr ? abbrev.ptr :
				  oid_short(oid, 7), author.buf,
				  git_commit_message(commit), diff);
	git_buf_dispose(&abbrev);
	git_oid_cpy(&p->oid, oid);
	strbuf_release(&author);
	git_diff_free(diff);
	return r;
}

void rangediff_patch_release(struct rangediff_patch *p)
{
	free(p->label);
	free(p->subject);
	free(p->text);
	memset(p, 0, sizeof(*p));
}

void rangediff_patch_message(const struct rangediff_patch *p,
			     struct strbuf *out)
{
	static const char head[] = " ## Commit message ##\n";
	const char *s = strstr(p->text, head);
	const char *end = p->text + (p->diff_offset ? p->diff_offset : p->len);

	if (!s || s >= end)
		return;
	for (s += sizeof(head) - 1; s < end;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s), skip = 0;

		while (skip < 4 && skip < n && s[skip] == ' ')
			skip++;
		strbuf_add(out, s + skip, n - skip);
		strbuf_addch(out, '\n');
		s += n + (nl ? 1 : 0);
	}
	strbuf_rtrim(out);
	strbuf_addch(out, '\n');
}
