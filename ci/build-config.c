// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The .config of a kernel tree's build directory: what makes it (the
 * build check's kconfig: current, your .config or else tinyconfig;
 * tiny-qemu, tools/kernel-config-tiny.sh with the options the series
 * wants), and the stamp beside it (.respin-config) saying how the one
 * there was made.  A .config made otherwise than the check wants now
 * (another kconfig, other options, your .config changed, a build
 * directory an older respin left without a stamp) is another kernel:
 * the directory holds no known build then (build_marker_read()), and
 * the next build empties it and makes the .config again.
 */
#include "ci/kind.h"
#include "ci/kconfig.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"
#include "tools/lib/repo.h"

#include <stdlib.h>
#include <string.h>

/* What the check wants, worked out once a run. */
struct build_config {
	int known;
	int kernel;		/* the tree is a kernel's: it has a Kconfig */
	struct strbuf stamp;	/* how the .config is made: one line */
	struct strbuf make;	/* the command that makes it */
	struct strbuf log;	/* what the build's log says of it */
};

void build_config_release(struct engine *e)
{
	struct build_config *bc = e->config;

	if (!bc)
		return;
	strbuf_release(&bc->stamp);
	strbuf_release(&bc->make);
	strbuf_release(&bc->log);
	free(bc);
	e->config = NULL;
}

/*
 * kconfig = tiny-qemu: tools/kernel-config-tiny.sh with the options
 * the series wants (ci/kconfig.h) as --try, so that one its tree cannot
 * have is said, not fatal.  The same .config for every patch: from
 * what the whole series touches.
 */
static int tiny_qemu(struct engine *e, struct build_config *bc)
{
	struct strbuf opts = STRBUF_INIT, tool = STRBUF_INIT;
	struct strbuf word = STRBUF_INIT;
	git_tree *base = NULL, *tip = NULL;
	git_commit *cb = NULL, *ct = NULL;
	const char *p;
	int r;

	r = respin_tool_path("kernel-config-tiny.sh", &tool);
	if (r == RESPIN_ENOTFOUND) {
		r = error("kconfig = tiny-qemu needs kernel-config-tiny.sh: "
			  "not beside respin (tools/ in its build tree, "
			  "libexec/respin/ where it is installed)");
		goto out;
	}
	if (git_commit_lookup(&cb, e->repo, engine_commit(e->v, 0)) < 0 ||
	    git_commit_lookup(&ct, e->repo,
			      engine_commit(e->v, e->v->nr_patches)) < 0 ||
	    git_commit_tree(&base, cb) < 0 || git_commit_tree(&tip, ct) < 0) {
		r = error_git("cannot read the series' trees");
		goto out;
	}
	r = kconfig_wanted(e->repo, base, tip, &opts);
	if (r < 0)
		goto out;
	strbuf_addstr(&bc->make, "sh ");
	strbuf_add_sq(&bc->make, tool.buf);
	/* (each a plain name: kconfig_wanted() keeps no other) */
	p = opts.buf;
	while (strbuf_next_word(&word, &p, " "))
		strbuf_addf(&bc->make, " --try %s", word.buf);
	strbuf_addstr(&bc->make, " \"$RESPIN_SRC\" \"$RESPIN_BUILD\"");
	strbuf_addf(&bc->stamp, "tiny-qemu %d%s%s", KCONFIG_TINY_FORMAT,
		    opts.len ? " " : "", opts.buf);
	strbuf_addf(&bc->log, "respin: kconfig = tiny-qemu: a tinyconfig for "
		    "QEMU%s%s\n", opts.len ? " with, where they can be, " : "",
		    opts.buf);
out:
	git_tree_free(base);
	git_tree_free(tip);
	git_commit_free(cb);
	git_commit_free(ct);
	strbuf_release(&opts);
	strbuf_release(&tool);
	strbuf_release(&word);
	return r < 0 ? r : 0;
}

/* kconfig = current: a copy of your .config (by its content), else tinyconfig. */
static int current(struct engine *e, struct build_config *bc)
{
	const char *top = git_repository_workdir(e->repo);
	struct strbuf p = STRBUF_INIT, text = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid oid;

	if (top)
		strbuf_addf(&p, "%s.config", top);
	if (top && !strbuf_read_file(&text, p.buf)) {
		git_odb_hash(&oid, text.buf, text.len, GIT_OBJECT_BLOB);
		git_oid_tostr(hex, sizeof(hex), &oid);
		strbuf_addstr(&bc->make, "cp ");
		strbuf_add_sq(&bc->make, p.buf);
		strbuf_addstr(&bc->make, " \"$RESPIN_BUILD/.config\" && "
			      "make ARCH=x86_64 O=\"$RESPIN_BUILD\" olddefconfig");
		strbuf_addf(&bc->stamp, "current %s", hex);
		strbuf_addf(&bc->log, "respin: using the .config of %s\n", top);
	} else {
		strbuf_addstr(&bc->make, "make ARCH=x86_64 O=\"$RESPIN_BUILD\" "
			      "tinyconfig");
		strbuf_addstr(&bc->stamp, "current tinyconfig");
		strbuf_addstr(&bc->log, "respin: no .config: making tinyconfig\n");
	}
	strbuf_release(&p);
	strbuf_release(&text);
	return 0;
}

static int wanted(struct engine *e, struct build_config **out)
{
	const struct check *b = engine_build_check(e);
	struct build_config *bc = e->config;
	int r = 0;

	if (!bc) {
		bc = e->config = xcalloc(1, sizeof(*bc));
		strbuf_init(&bc->stamp, 0);
		strbuf_init(&bc->make, 0);
		strbuf_init(&bc->log, 0);
	}
	if (!bc->known) {
		bc->kernel = engine_file_exists(e->wt.path, "Kconfig");
		if (!bc->kernel)
			;	/* (no .config to make) */
		else if (b && b->kconfig && !strcmp(b->kconfig, "tiny-qemu"))
			r = tiny_qemu(e, bc);
		else
			r = current(e, bc);
		if (r < 0) {
			strbuf_reset(&bc->stamp);
			strbuf_reset(&bc->make);
			strbuf_reset(&bc->log);
			return r;
		}
		bc->known = 1;
	}
	*out = bc;
	return 0;
}

/* The stamp in the build directory (empty: none). */
static void stamp_read(struct engine *e, struct strbuf *out)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_addf(&p, "%s/.respin-config", e->wt.build_dir);
	if (strbuf_read_file(out, p.buf) < 0)
		strbuf_reset(out);
	strbuf_rtrim(out);
	strbuf_release(&p);
}

int build_config_fresh(struct engine *e)
{
	struct build_config *bc;
	struct strbuf have = STRBUF_INIT;
	int r = wanted(e, &bc);

	if (r < 0)
		return r;
	if (!bc->kernel)
		return 1;
	if (!engine_file_exists(e->wt.build_dir, ".config"))
		return 0;
	stamp_read(e, &have);
	r = !strcmp(have.buf, bc->stamp.buf);
	strbuf_release(&have);
	return r;
}

int build_config_command(struct engine *e, struct strbuf *cmd,
			 struct strbuf *log)
{
	struct build_config *bc;
	struct strbuf have = STRBUF_INIT;
	int r = build_config_fresh(e);

	if (r)
		return r < 0 ? r : 0;
	bc = e->config;
	if (engine_file_exists(e->wt.build_dir, ".config")) {
		stamp_read(e, &have);
		if (have.len)
			strbuf_addf(log, "respin: the .config here was made as "
				    "\"%s\"; this build wants \"%s\": the "
				    "build starts over\n", have.buf,
				    bc->stamp.buf);
		else
			strbuf_addf(log, "respin: the .config here has no "
				    ".respin-config saying how it was made; "
				    "this build wants \"%s\": the build "
				    "starts over\n", bc->stamp.buf);
	}
	strbuf_add(log, bc->log.buf, bc->log.len);
	/*
	 * Objects built under another .config would carry its warnings:
	 * all goes but the marks of a build under way (ci/check-build.c)
	 * and of a chain (ci/build-chain.c).
	 */
	strbuf_addstr(cmd, "find \"$RESPIN_BUILD\" -mindepth 1 -maxdepth 1 "
		      "! -name .respin-building ! -name .respin-chain "
		      "-exec rm -rf -- {} + && ");
	strbuf_add(cmd, bc->make.buf, bc->make.len);
	strbuf_addstr(cmd, " && printf '%s\\n' ");
	strbuf_add_sq(cmd, bc->stamp.buf);
	strbuf_addstr(cmd, " >\"$RESPIN_BUILD/.respin-config\"");
	strbuf_release(&have);
	return 1;
}
