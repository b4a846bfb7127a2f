// SPDX-License-Identifier: GPL-2.0-or-later
#include "repo.h"
#include "error.h"
#include "run.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * Is dir (libgit2's, with a '/' at the end) the directory path names?
 * (libgit2 1.5 leaks when asked to set the work tree it has.)
 */
static int same_dir(const char *dir, const char *path)
{
	char *real = realpath(path, NULL);
	size_t n;
	int same;

	if (!dir || !real) {
		free(real);
		return 0;
	}
	n = strlen(real);
	same = !strncmp(dir, real, n) && (dir[n] == '/' || !dir[n]) &&
	       (!dir[n] || !dir[n + 1]);
	free(real);
	return same;
}

int repo_open(git_repository **out)
{
	const char *gd = getenv("GIT_DIR"), *wt = getenv("GIT_WORK_TREE");
	int r;

	*out = NULL;
	if (wt && *wt) {
		/*
		 * libgit2's FROM_ENV refuses GIT_WORK_TREE: open GIT_DIR (or
		 * search from here) and set the work tree by hand.
		 */
		if (gd && *gd)
			r = git_repository_open_ext(out, gd,
					GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
		else
			r = git_repository_open_ext(out, ".", 0, NULL);
		if (!r && !same_dir(git_repository_workdir(*out), wt))
			r = git_repository_set_workdir(*out, wt, 0);
	} else {
		/* GIT_DIR, GIT_CEILING_DIRECTORIES, ... as git reads them */
		r = git_repository_open_ext(out, NULL,
					    GIT_REPOSITORY_OPEN_FROM_ENV, NULL);
	}
	if (r < 0) {
		const git_error *e = git_error_last();

		git_repository_free(*out);
		*out = NULL;
		if (gd && *gd) {
			error("not a git repository: GIT_DIR=%s: %s", gd,
			      e ? e->message : "cannot open it");
			error_hint("point GIT_DIR (or git --git-dir) at a "
				   "repository's .git directory, or unset it");
		} else {
			error("not a git repository (or any of the parent "
			      "directories): %s", e ? e->message : ".");
			error_hint("run respin inside a git repository, or "
				   "'git init' one first");
		}
		return RESPIN_ERR;
	}
	return 0;
}

/*
 * Parses git's internal form, "@EPOCH", "EPOCH" or "EPOCH +ZZZZ", and
 * nothing else; 0 if that is what s is.
 */
static int parse_raw_date(const char *s, int64_t *when, int *offset)
{
	char *end;
	long long t;
	int z;

	if (*s == '@')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	t = strtoll(s, &end, 10);
	*when = t;
	*offset = 0;
	while (*end == ' ')
		end++;
	if (!*end)
		return 0;
	if ((*end != '+' && *end != '-') || strlen(end) != 5 ||
	    strspn(end + 1, "0123456789") != 4)
		return -1;
	z = atoi(end + 1);
	*offset = (z / 100) * 60 + z % 100;
	if (*end == '-')
		*offset = -*offset;
	return 0;
}

/*
 * Any other form git reads ("2024-01-01T00:00:00Z", RFC 2822, ...) is
 * read by git itself: git var prints the committer ident with the date
 * as EPOCH +ZZZZ (a fixed name, so that no identity is needed).
 */
static int git_read_date(int64_t *when, int *offset)
{
	static const char *const argv[] = {
		"git", "var", "GIT_COMMITTER_IDENT", NULL
	};
	static const char *const env[] = {
		"GIT_COMMITTER_NAME=respin",
		"GIT_COMMITTER_EMAIL=respin@localhost", NULL
	};
	struct run_opts o = { 0 };
	struct run_result res;
	const char *gt;
	int r = -1;

	o.argv = argv;
	o.env = env;
	o.timeout = 30;
	run_result_init(&res);
	if (run_program(&o, &res) == 0 && res.exited && !res.exit_code &&
	    (gt = strrchr(res.output.buf, '>'))) {
		strbuf_rtrim(&res.output);
		r = parse_raw_date(gt + 2, when, offset);
	}
	run_result_release(&res);
	error_clear();
	return r;
}

static struct {
	pthread_once_t once;
	int set;		/* GIT_COMMITTER_DATE set and understood */
	int64_t when;
	int offset;
} env_date = { PTHREAD_ONCE_INIT, 0, 0, 0 };

static void env_date_read(void)
{
	const char *d = getenv("GIT_COMMITTER_DATE");

	if (!d || !*d)
		return;
	env_date.set = !parse_raw_date(d, &env_date.when, &env_date.offset) ||
		       !git_read_date(&env_date.when, &env_date.offset);
}

int repo_env_date(int64_t *when, int *offset)
{
	pthread_once(&env_date.once, env_date_read);
	if (!env_date.set)
		return -1;
	*when = env_date.when;
	if (offset)
		*offset = env_date.offset;
	return 0;
}

int64_t repo_now(void)
{
	int64_t when;

	if (!repo_env_date(&when, NULL))
		return when;
	return (int64_t)time(NULL);
}

int repo_signature(git_repository *repo, git_signature **out)
{
	const char *name = getenv("GIT_COMMITTER_NAME");
	const char *email = getenv("GIT_COMMITTER_EMAIL");
	git_config *cfg = NULL;
	git_buf cname = GIT_BUF_INIT, cemail = GIT_BUF_INIT;
	int64_t when;
	int off, r;

	if (git_repository_config_snapshot(&cfg, repo) == 0) {
		if (!name && !git_config_get_string_buf(&cname, cfg, "user.name"))
			name = cname.ptr;
		if (!email &&
		    !git_config_get_string_buf(&cemail, cfg, "user.email"))
			email = cemail.ptr;
	}
	if (!name || !*name)
		name = "respin";
	if (!email || !*email)
		email = "respin@localhost";
	if (!repo_env_date(&when, &off))
		r = git_signature_new(out, name, email, (git_time_t)when, off);
	else
		r = git_signature_now(out, name, email);
	git_buf_dispose(&cname);
	git_buf_dispose(&cemail);
	git_config_free(cfg);
	if (r < 0)
		return error_git("cannot make a signature for '%s <%s>'",
				 name, email);
	return 0;
}

int repo_commit_lookup(git_repository *repo, const char *rev, git_commit **out)
{
	git_object *obj = NULL;
	int r;

	if (git_revparse_single(&obj, repo, rev) < 0)
		return error_code(RESPIN_ENOTFOUND,
				  "unknown revision '%s'", rev);
	r = git_object_peel((git_object **)out, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (r < 0)
		return error("'%s' does not name a commit", rev);
	return 0;
}

void strbuf_add_oid(struct strbuf *sb, const git_oid *oid, size_t n)
{
	char hex[GIT_OID_HEXSZ + 1];

	if (n > GIT_OID_HEXSZ)
		n = GIT_OID_HEXSZ;
	git_oid_tostr(hex, n + 1, oid);
	strbuf_addstr(sb, hex);
}

const char *oid_short(const git_oid *oid, size_t n)
{
	/* a ring of its own in each thread: lint jobs run in threads */
	static _Thread_local char bufs[4][GIT_OID_HEXSZ + 1];
	static _Thread_local int k;
	char *b = bufs[k++ & 3];

	if (n > GIT_OID_HEXSZ)
		n = GIT_OID_HEXSZ;
	git_oid_tostr(b, n + 1, oid);
	return b;
}

const char *repo_ref_short(const char *ref)
{
	if (!strncmp(ref, "refs/heads/", 11))
		return ref + 11;
	if (!strncmp(ref, "refs/remotes/", 13))
		return ref + 13;
	if (!strncmp(ref, "refs/tags/", 10))
		return ref + 10;
	return ref;
}

const char *repo_date(int64_t when)
{
	static _Thread_local char buf[32];
	time_t t = (time_t)when;
	struct tm tm;

	if (!localtime_r(&t, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, sizeof(buf), "@%lld", (long long)when);
	return buf;
}

int repo_config_snapshot(git_repository *repo, git_config **cfg)
{
	git_config *live = NULL;
	int r;

	if (repo)
		return git_repository_config_snapshot(cfg, repo);
	r = git_config_open_default(&live);
	if (!r) {
		r = git_config_snapshot(cfg, live);
		git_config_free(live);
	}
	return r;
}

char *repo_config_string(git_repository *repo, const char *key,
			 const char *def)
{
	git_config *cfg = NULL;
	git_buf buf = GIT_BUF_INIT;
	char *r = NULL;
	int got = repo_config_snapshot(repo, &cfg);

	if (!got && !git_config_get_string_buf(&buf, cfg, key))
		r = xstrdup(buf.ptr);
	git_error_clear();
	git_buf_dispose(&buf);
	git_config_free(cfg);
	return r ? r : def ? xstrdup(def) : NULL;
}

char *repo_lore_url(git_repository *repo)
{
	char *url = repo_config_string(repo, "respin.lore-url",
				       "https://lore.kernel.org/all");
	size_t n = strlen(url);

	while (n && url[n - 1] == '/')
		url[--n] = '\0';
	return url;
}

char *repo_editor(git_repository *repo)
{
	const char *e = getenv("GIT_EDITOR");
	char *conf;

	if (e && *e)
		return xstrdup(e);
	conf = repo_config_string(repo, "core.editor", NULL);
	if (conf && *conf)
		return conf;
	free(conf);
	if ((e = getenv("VISUAL")) && *e)
		return xstrdup(e);
	if ((e = getenv("EDITOR")) && *e)
		return xstrdup(e);
	return xstrdup("vi");
}

void repo_user(git_repository *repo, char **name, char **email)
{
	const char *n = getenv("GIT_AUTHOR_NAME");
	const char *e = getenv("GIT_AUTHOR_EMAIL");

	*name = n && *n ? xstrdup(n) : repo_config_string(repo, "user.name",
							  NULL);
	*email = e && *e ? xstrdup(e) : repo_config_string(repo, "user.email",
							   NULL);
}
