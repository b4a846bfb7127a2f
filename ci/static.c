// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/static.h"
#include "tools/lib/error.h"

#include <stdlib.h>
#include <string.h>

/*
 * The default commands: the list on stdin; a missing tool exits 127
 * with a line saying what to install (judged an ERROR, not stored).
 */
#define NEED(tool, pkg) \
	"command -v " tool " >/dev/null || { echo 'respin: " tool " is not " \
	"installed (Debian: apt-get install " pkg ")' >&2; exit 127; }; "

static const struct static_kind static_kinds[] = {
	{ CHECK_SPARSE, STATIC_C,
	  NEED("sparse", "sparse")
	  "sed 's/\\.c$/.o/' | xargs -r make ARCH=x86_64 O=\"$RESPIN_BUILD\" "
	  "-j$(nproc) C=2 CHECK=sparse",
	  "make C=2 CHECK=sparse on the touched .c files' objects",
	  "no kernel .c files" },
	/* touched first: make rebuilds them with W=1 whatever it holds */
	{ CHECK_W1, STATIC_C,
	  "while IFS= read -r f; do touch -- \"$f\" && "
	  "printf '%s\\n' \"${f%.c}.o\" || exit; done | "
	  "xargs -r make ARCH=x86_64 O=\"$RESPIN_BUILD\" -j$(nproc) W=1",
	  "make W=1 on the touched .c files' objects",
	  "no kernel .c files" },
	{ CHECK_KDOC, STATIC_C_H,
	  "[ -f scripts/kernel-doc ] || { echo 'respin: this tree has no "
	  "scripts/kernel-doc' >&2; exit 127; }; "
	  "xargs -r scripts/kernel-doc -none",
	  "scripts/kernel-doc -none on the touched .c and .h files",
	  "no .c or .h files" },
	{ CHECK_COCCI, STATIC_DIRS,
	  NEED("spatch", "coccinelle")
	  /* in the tree: under O= its M= is looked for in the build dir */
	  "while IFS= read -r d; do make ARCH=x86_64 coccicheck "
	  "MODE=report M=\"$d\" </dev/null || exit; done",
	  "make coccicheck MODE=report M=DIR for each touched directory",
	  "no .c or .h files" },
};

const struct static_kind *static_kind(enum check_kind k)
{
	size_t i;

	for (i = 0; i < sizeof(static_kinds) / sizeof(*static_kinds); i++)
		if (static_kinds[i].kind == k)
			return &static_kinds[i];
	return NULL;
}

int static_path_ok(const char *path)
{
	const char *p;

	if (!*path || *path == '-' || *path == '/')
		return 0;
	for (p = path; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("_-.,+/", *p)))
			return 0;
	/* no "." or ".." component, nor an empty one */
	for (p = path;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);

		if (!n || (n == 1 && *p == '.') ||
		    (n == 2 && !strncmp(p, "..", 2)))
			return 0;
		if (!slash)
			return 1;
		p = slash + 1;
	}
}

void static_lists_init(struct static_lists *l)
{
	strbuf_init(&l->before, 0);
	strbuf_init(&l->after, 0);
	strbuf_init(&l->refused, 0);
}

void static_lists_release(struct static_lists *l)
{
	strbuf_release(&l->before);
	strbuf_release(&l->after);
	strbuf_release(&l->refused);
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n > t && !strcmp(s + n - t, tail);
}

/* Is "name\n" a line of list? */
static int has_line(const struct strbuf *list, const char *name, size_t n)
{
	const char *p = list->buf;

	while (p && *p) {
		const char *nl = strchr(p, '\n');

		if ((size_t)(nl - p) == n && !strncmp(p, name, n))
			return 1;
		p = nl + 1;
	}
	return 0;
}

/* path on list, as kind sk takes it (its directory, maybe), once. */
static void list_add(struct strbuf *list, const struct static_kind *sk,
		     const char *path)
{
	size_t n = strlen(path);

	if (sk->files == STATIC_DIRS) {
		const char *slash = strrchr(path, '/');

		/* a file at the top: M=. would be the whole tree */
		if (!slash)
			return;
		n = (size_t)(slash - path);
	}
	if (!has_line(list, path, n)) {
		strbuf_add(list, path, n);
		strbuf_addch(list, '\n');
	}
}

/*
 * Trees of programs the kernel's build does not compile as objects of
 * the kernel (the selftests, host tools): no make target there for
 * sparse and W=1.
 */
static const char *const not_kbuild[] = {
	"tools/", "scripts/", "Documentation/", "usr/",
};

static int kbuild_object(const char *path)
{
	size_t k;

	for (k = 0; k < sizeof(not_kbuild) / sizeof(*not_kbuild); k++)
		if (!strncmp(path, not_kbuild[k], strlen(not_kbuild[k])))
			return 0;
	return 1;
}

static int wanted(const struct static_kind *sk, const char *path)
{
	if (sk->files == STATIC_C)
		return ends_with(path, ".c") && kbuild_object(path);
	return ends_with(path, ".c") || ends_with(path, ".h");
}

int static_lists_make(git_repository *repo, git_tree *a, git_tree *b,
		      const struct static_kind *sk, struct static_lists *l)
{
	git_diff *diff = NULL;
	size_t k, n;

	if (git_diff_tree_to_tree(&diff, repo, a, b, NULL) < 0)
		return error_git("cannot compare the trees of a patch");
	n = git_diff_num_deltas(diff);
	for (k = 0; k < n; k++) {
		const git_diff_delta *d = git_diff_get_delta(diff, k);
		const char *op = d->old_file.path, *np = d->new_file.path;
		int bad = 0;

		if (d->status != GIT_DELTA_ADDED && wanted(sk, op)) {
			if (static_path_ok(op))
				list_add(&l->before, sk, op);
			else
				bad = 1;
		}
		if (d->status != GIT_DELTA_DELETED && wanted(sk, np)) {
			if (static_path_ok(np))
				list_add(&l->after, sk, np);
			else
				bad = 1;
		}
		if (bad)
			strbuf_addf(&l->refused, "%s\n",
				    static_path_ok(op) ? np : op);
	}
	git_diff_free(diff);
	return 0;
}

void static_details(const struct warning_set *before,
		    const struct warning_set *after, struct strbuf *out,
		    size_t *added, size_t *fixed)
{
	size_t w;

	*added = *fixed = 0;
	for (w = 0; w < after->nr; w++)
		if (!warning_set_has(before, after->items[w])) {
			strbuf_addf(out, "+ %s\n", after->items[w]);
			(*added)++;
		}
	for (w = 0; w < before->nr; w++)
		if (!warning_set_has(after, before->items[w])) {
			strbuf_addf(out, "- %s\n", before->items[w]);
			(*fixed)++;
		}
	for (w = 0; w < after->nr; w++)
		if (warning_set_has(before, after->items[w]))
			strbuf_addf(out, "= %s\n", after->items[w]);
}

void static_details_parse(const char *details, struct warning_set *added,
			  struct warning_set *fixed,
			  struct warning_set *after)
{
	const char *p = details;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);

		if (l > 2 && p[1] == ' ') {
			char *w = xstrndup(p + 2, l - 2);

			if (*p == '+' && added)
				warning_set_add(added, w);
			if (*p == '-' && fixed)
				warning_set_add(fixed, w);
			if ((*p == '+' || *p == '=') && after)
				warning_set_add(after, w);
			free(w);
		}
		p = nl ? nl + 1 : NULL;
	}
}

void static_summary(size_t added, size_t fixed, struct strbuf *out)
{
	if (added)
		strbuf_addf(out, "+%zu", added);
	else
		strbuf_addstr(out, "ok");
	if (fixed)
		strbuf_addf(out, " -%zu", fixed);
}
