// SPDX-License-Identifier: GPL-2.0-or-later
#include "bisect/setup.h"
#include "ci/kind.h"
#include "ci/session.h"
#include "tools/lib/error.h"
#include "tools/lib/repo.h"
#include "tools/lib/strbuf.h"

#include <stdlib.h>

#define DEFAULT_RETRIES 2

int bisect_retries(git_repository *repo, int *retries)
{
	char *cfg, *end = NULL;
	long l;
	int r;

	if (*retries >= 0 && *retries <= 100)
		return 0;
	if (*retries != -1)
		return error_code(RESPIN_EUSAGE, "--retries wants 0 to 100, "
				  "not %d", *retries);
	*retries = DEFAULT_RETRIES;
	cfg = repo_config_string(repo, "respin.bisect.retries", NULL);
	if (!cfg)
		return 0;
	l = strtol(cfg, &end, 10);
	if (!*cfg || *end || l < 0 || l > 100) {
		r = error_code(RESPIN_EUSAGE, "respin.bisect.retries is '%s': "
			       "give 0 to 100", cfg);
		free(cfg);
		return r;
	}
	*retries = (int)l;
	free(cfg);
	return 0;
}

int bisect_pick_checks(struct check_list *l, const char *name,
		       const char *subtest, const struct check **c)
{
	struct strbuf only = STRBUF_INIT;
	const struct check *want = checks_find(l, name);
	const struct check_kind_ops *ops;
	size_t i;
	int r;

	if (!want)
		return error_code(RESPIN_EUSAGE, "no check named '%s' "
				  "(respin check --list shows them)", name);
	ops = check_kind_ops(want->kind);
	/* keyed by the patch's mail, or by the trees around it */
	if (ops->needs & (KIND_NEEDS_MAIL | KIND_KEY_PAIR))
		return error_code(RESPIN_EUSAGE, "'%s' looks at each patch "
				  "alone (a %s check): 'respin results' "
				  "names the patches it fails on", name,
				  check_kind_name(want->kind));
	if (subtest && ops->results != KIND_RESULTS_SUBTESTS)
		return error_code(RESPIN_EUSAGE, "--subtest goes with a ktap "
				  "or kselftest check; '%s' is a %s check", name,
				  check_kind_name(want->kind));
	strbuf_addstr(&only, name);
	if (ops->needs & KIND_NEEDS_BUILD)
		for (i = 0; i < l->nr; i++)
			if (check_is_builder(&l->items[i]))
				strbuf_addf(&only, ",%s", l->items[i].name);
	r = checks_filter(l, only.buf);
	strbuf_release(&only);
	if (r < 0)
		return r;
	*c = checks_find(l, name);
	return 0;
}

int bisect_load_version(git_repository *repo, const char *spec,
			struct series *s, struct series_version **v)
{
	int r = series_load_spec(repo, spec, s, v);

	if (r < 0)
		return r;
	if (series_version_mail_only(*v))
		return error("%s v%d was recorded from mail only; apply it "
			     "first ('respin import %s@v%d --base REF')",
			     s->name, (*v)->number, s->name, (*v)->number);
	return 0;
}

int bisect_engine_start(struct command_context *ctx, struct engine *e,
			struct series *s, struct series_version *v,
			struct check_list *checks, struct results **rs,
			int *ready)
{
	int r = check_session_open(ctx, e, s, v, checks, rs, ready);

	return r == 1 ? RESPIN_ERR : r;	/* (the lock said who holds it) */
}
