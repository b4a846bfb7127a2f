// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/kconfig.h"
#include "tools/lib/error.h"

#include <string.h>

static int name_ok(const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (!((s[k] >= 'A' && s[k] <= 'Z') ||
		      (s[k] >= 'a' && s[k] <= 'z') ||
		      (s[k] >= '0' && s[k] <= '9') || s[k] == '_'))
			return 0;
	return n > 0;
}

/* Adds name (n bytes) to the space-separated list out, once. */
static void add_once(struct strbuf *out, const char *name, size_t n)
{
	const char *p = out->buf;

	if (!name_ok(name, n))
		return;
	while (*p) {
		size_t len = strcspn(p, " ");

		if (len == n && !memcmp(p, name, n))
			return;
		p += len;
		if (*p == ' ')
			p++;
	}
	if (out->len)
		strbuf_addch(out, ' ');
	strbuf_add(out, name, n);
}

/* Whether line (n bytes) names word as a whole word. */
static int has_word(const char *line, size_t n, const char *word)
{
	size_t w = strlen(word), k;

	for (k = 0; k + w <= n; k++) {
		if (memcmp(line + k, word, w))
			continue;
		if ((k == 0 || strchr(" \t=+/", line[k - 1])) &&
		    (k + w == n || strchr(" \t\\", line[k + w])))
			return 1;
	}
	return 0;
}

void kconfig_makefile_options(const char *makefile, size_t len,
			      const char *object, struct strbuf *out)
{
	struct strbuf joined = STRBUF_INIT;
	const char *p, *end;
	size_t k;

	/* a line continued with a backslash is one line */
	for (k = 0; k < len; k++) {
		if (makefile[k] == '\\' && k + 1 < len &&
		    makefile[k + 1] == '\n') {
			strbuf_addch(&joined, ' ');
			k++;
		} else {
			strbuf_addch(&joined, makefile[k]);
		}
	}
	p = joined.buf;
	end = p + joined.len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *o = n > 13 ? memmem(p, n, "obj-$(CONFIG_", 13) :
			NULL;

		/* obj-$(CONFIG_X) += a.o b.o (continuations: one line) */
		if (o && has_word(p, n, object)) {
			const char *name = o + 13;
			const char *close = memchr(name, ')',
						   (size_t)(p + n - name));

			if (close)
				add_once(out, name, (size_t)(close - name));
		}
		p += n + 1;
	}
	strbuf_release(&joined);
}

void kconfig_fragment_options(const char *text, size_t len,
			      struct strbuf *out)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n > 9 && !memcmp(p, "CONFIG_", 7) && p[n - 2] == '=' &&
		    p[n - 1] == 'y')
			add_once(out, p + 7, n - 9);
		p += n + 1;
	}
}

/* The text of path in tree, or 1 when it has none. */
static int blob_text(git_repository *repo, git_tree *tree, const char *path,
		     struct strbuf *out)
{
	git_tree_entry *te = NULL;
	git_blob *blob = NULL;

	if (git_tree_entry_bypath(&te, tree, path))
		return 1;
	if (git_tree_entry_type(te) != GIT_OBJECT_BLOB ||
	    git_blob_lookup(&blob, repo, git_tree_entry_id(te)) < 0) {
		git_tree_entry_free(te);
		return 1;
	}
	strbuf_add(out, git_blob_rawcontent(blob),
		   (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	git_tree_entry_free(te);
	return 0;
}

int kconfig_wanted(git_repository *repo, git_tree *base, git_tree *tip,
		   struct strbuf *out)
{
	static const char *const fragments[] = {
		"tools/testing/selftests/mm/config",
		"tools/testing/selftests/vm/config",
	};
	struct strbuf text = STRBUF_INIT, path = STRBUF_INIT,
		      object = STRBUF_INIT;
	git_diff *diff = NULL;
	size_t k, n;

	if (git_diff_tree_to_tree(&diff, repo, base, tip, NULL) < 0)
		return error_git("cannot compare the series' trees");
	n = git_diff_num_deltas(diff);
	for (k = 0; k < n; k++) {
		const char *f = git_diff_get_delta(diff, k)->new_file.path;
		const char *slash = strrchr(f, '/');
		size_t len = strlen(f);

		if (len < 3 || strcmp(f + len - 2, ".c") || !slash)
			continue;
		strbuf_reset(&path);
		strbuf_add(&path, f, (size_t)(slash - f));
		strbuf_addstr(&path, "/Makefile");
		strbuf_reset(&object);
		strbuf_add(&object, slash + 1, (size_t)(f + len - 2 - slash - 1));
		strbuf_addstr(&object, ".o");
		strbuf_reset(&text);
		if (!blob_text(repo, tip, path.buf, &text))
			kconfig_makefile_options(text.buf, text.len,
						 object.buf, out);
	}
	git_diff_free(diff);
	for (k = 0; k < sizeof(fragments) / sizeof(*fragments); k++) {
		strbuf_reset(&text);
		if (!blob_text(repo, tip, fragments[k], &text))
			kconfig_fragment_options(text.buf, text.len, out);
	}
	strbuf_release(&text);
	strbuf_release(&path);
	strbuf_release(&object);
	return 0;
}
