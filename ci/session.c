// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A check session (session.h): the setup respin check, bisect and
 * bisect-base share, and the progress line they show on a terminal
 * (drawn by the command layer's command_progress_fit(): nothing here
 * prints).
 */
#include "ci/session.h"
#include "tools/lib/run.h"
#include "tools/lib/strbuf.h"

int check_session_open(struct command_context *ctx, struct engine *e,
		       struct series *s, struct series_version *v,
		       struct check_list *checks, struct results **rs,
		       int *ready)
{
	int r = results_open(ctx->repo, rs);

	if (r < 0)
		return r;
	engine_init(e, ctx->repo, s, v, checks, *rs);
	*ready = 1;
	run_signals_catch();
	if (ctx->stderr_is_tty)
		e->progress = check_progress_stderr;
	return engine_lock(e, 0, NULL);
}

void check_progress_stderr(const struct engine_progress *p, void *data)
{
	struct strbuf text = STRBUF_INIT;

	(void)data;
	if (!p->what) {
		command_progress_fit(NULL);
		return;
	}
	engine_progress_text(p, &text);
	command_progress_fit(text.buf);
	strbuf_release(&text);
}
