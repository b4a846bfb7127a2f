// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/storename.h"
#include "series/store.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <stdlib.h>
#include <string.h>

int series_ref_delete(git_repository *repo, const char *name,
		      const git_oid *expect)
{
	struct strbuf refname = STRBUF_INIT;
	git_reference *ref = NULL;
	int r = 0;

	strbuf_addf(&refname, SERIES_REF_PREFIX "%s", name);
	if (git_reference_lookup(&ref, repo, refname.buf) < 0)
		r = error_code(RESPIN_ENOTFOUND, "no series '%s'", name);
	else if (!git_reference_target(ref) ||
		 !git_oid_equal(git_reference_target(ref), expect))
		r = error("series '%s' was changed by someone else meanwhile; "
			  "nothing was removed, try again", name);
	else if (git_reference_delete(ref) < 0)
		r = error_git("cannot delete %s", refname.buf);
	git_reference_free(ref);
	strbuf_release(&refname);
	return r;
}

int series_ref_rename(git_repository *repo, const char *old_name,
		      const char *new_name)
{
	struct series s;
	struct strbuf msg = STRBUF_INIT;
	git_oid old_meta;
	int r;

	r = series_load(repo, old_name, &s, SERIES_LOAD_LATEST);
	if (r < 0)
		goto out;
	git_oid_cpy(&old_meta, &s.meta);
	free(s.name);
	s.name = xstrdup(new_name);
	/* a new ref (CAS from nothing); the old history its parent */
	memset(&s.meta, 0, sizeof(s.meta));
	strbuf_addf(&msg, "respin rename %s %s", old_name, new_name);
	r = series_save_many(repo, &s, &old_meta, 1, msg.buf);
	if (r < 0)
		goto out;
	r = series_ref_delete(repo, old_name, &old_meta);
out:
	series_release(&s);
	strbuf_release(&msg);
	return r;
}
