// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * guest = true: a check's command inside its position's kernel, through
 * tools/respin-guest (see ci/guest.h), and the runtime warnings of that
 * kernel as the result's details.
 */
#include "ci/guest.h"
#include "ci/kind.h"
#include "ci/splat.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"

#include <stdlib.h>
#include <string.h>

#define END_MARK "\nrespin-guest-end: "
#define DMESG_MARK "respin-guest-dmesg:\n"
#define CONSOLE_MARK "respin-guest-console:\n"

/* The variables the command gets in the guest, as on the host. */
static const char *const job_vars[] = {
	"RESPIN_BUILD", "RESPIN_SRC", "RESPIN_SERIES", "RESPIN_PATCH",
	"RESPIN_PATCHES", "RESPIN_TREE",
};

double guest_timeout(const struct check *c)
{
	return c->timeout + 30;
}

void guest_command(struct engine *e, const struct check *c,
		   const char *command, struct strbuf *out)
{
	struct strbuf runner = STRBUF_INIT, dir = STRBUF_INIT;
	size_t k;

	respin_tool_path("respin-guest", &runner);	/* or PATH */
	strbuf_addf(&dir, "%srespin/guest/%s/%s",
		    git_repository_commondir(e->repo), e->s->name, c->name);
	strbuf_addstr(out, "t=$(mktemp -d \"${TMPDIR:-/tmp}/respin-guest-run."
		      "XXXXXX\") || exit 1; o=");
	strbuf_add_sq(out, dir.buf);
	strbuf_addstr(out, "; rm -rf \"$o\" && mkdir -p \"$o\" || { "
		      "echo \"respin: cannot make $o\"; rm -rf \"$t\"; exit 1; }; "
		      "if ! command -v ");
	strbuf_add_sq(out, runner.buf);
	strbuf_addstr(out, " >/dev/null; then printf 'respin: no runner %s\\n' ");
	strbuf_add_sq(out, runner.buf);
	strbuf_addstr(out, "; rc=127; else ");
	strbuf_add_sq(out, runner.buf);
	strbuf_addf(out, " --timeout %d", c->timeout >= 1 ? (int)c->timeout : 1);
	if (c->append) {
		strbuf_addstr(out, " --append ");
		strbuf_add_sq(out, c->append);
	}
	if (c->icount)
		strbuf_addf(out, " --icount %d", c->icount - 1);
	strbuf_addstr(out, " --share \"$o\" --console \"$t/console\" "
		      "--dmesg \"$t/dmesg\"");
	for (k = 0; k < sizeof(job_vars) / sizeof(*job_vars); k++)
		strbuf_addf(out, " --env \"%s=$%s\"", job_vars[k], job_vars[k]);
	strbuf_addstr(out, " --env \"RESPIN_OUT=$o\" "
		      "\"$RESPIN_BUILD/arch/x86/boot/bzImage\" -- sh -c ");
	strbuf_add_sq(out, command);
	strbuf_addstr(out, " </dev/null 2>&1; rc=$?; fi; "
		      "if [ -f \"$t/dmesg\" ]; then "
		      "printf '\\nrespin-guest-end: exit %d\\n' \"$rc\"; "
		      "echo respin-guest-dmesg:; cat \"$t/dmesg\"; else "
		      "printf '\\nrespin-guest-end: runner %d\\n' \"$rc\"; "
		      "echo respin-guest-console:; cat \"$t/console\" 2>/dev/null; "
		      "fi; rm -rf \"$t\"; exit \"$rc\"");
	strbuf_release(&runner);
	strbuf_release(&dir);
}

/* The last occurrence of needle (n bytes) in [s, s + len), or NULL. */
static const char *last_of(const char *s, size_t len, const char *needle,
			   size_t n)
{
	const char *found = NULL, *p = s, *end = s + len;

	while (p < end && (p = memmem(p, (size_t)(end - p), needle, n))) {
		found = p;
		p++;
	}
	return found;
}

void guest_run_parse(const struct run_result *res, struct guest_run *g)
{
	const char *out = res->output.buf, *end = out + res->output.len;
	const char *mark = last_of(out, res->output.len, END_MARK,
				   sizeof(END_MARK) - 1);

	memset(g, 0, sizeof(*g));
	run_result_init(&g->cmd);
	g->runner = -1;
	g->cmd.seconds = res->seconds;
	g->cmd.timed_out = res->timed_out;
	if (!mark) {
		/* the script itself stopped (or was stopped) early */
		strbuf_add(&g->cmd.output, out, res->output.len);
		g->cmd.exited = res->exited;
		g->cmd.exit_code = res->exit_code;
		g->cmd.signal = res->signal;
		if (res->exited)
			g->runner = res->exit_code;
		return;
	}
	strbuf_add(&g->cmd.output, out, (size_t)(mark - out));
	{
		const char *p = mark + sizeof(END_MARK) - 1;
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		char *e2;
		long n;

		if (!strncmp(p, "exit ", 5)) {
			n = strtol(p + 5, &e2, 10);
			g->ended = 1;
			g->cmd.exited = 1;
			g->cmd.exit_code = (int)n;
		} else if (!strncmp(p, "runner ", 7)) {
			n = strtol(p + 7, &e2, 10);
			g->runner = (int)n;
		}
		p = nl ? nl + 1 : end;
		if ((size_t)(end - p) >= sizeof(DMESG_MARK) - 1 &&
		    !memcmp(p, DMESG_MARK, sizeof(DMESG_MARK) - 1)) {
			g->dmesg = p + sizeof(DMESG_MARK) - 1;
			g->dmesg_len = (size_t)(end - g->dmesg);
		} else if ((size_t)(end - p) >= sizeof(CONSOLE_MARK) - 1 &&
			   !memcmp(p, CONSOLE_MARK, sizeof(CONSOLE_MARK) - 1)) {
			g->console = p + sizeof(CONSOLE_MARK) - 1;
			g->console_len = (size_t)(end - g->console);
		}
	}
	if (g->dmesg)
		splat_scan(g->dmesg, g->dmesg_len, &g->splats);
	else if (g->console)
		splat_scan(g->console, g->console_len, &g->splats);
}

void guest_run_release(struct guest_run *g)
{
	run_result_release(&g->cmd);
	warning_set_release(&g->splats);
}

int guest_prev_splats(struct engine *e, const struct check *c, size_t i,
		      struct warning_set *prev)
{
	struct strbuf key = STRBUF_INIT;
	struct result old;
	int r;

	if (!i)
		return 0;
	r = engine_key(e->repo, e->v, c, i - 1, &key);
	if (!r)
		r = results_get(e->rs, c->hash, key.buf, &old);
	strbuf_release(&key);
	if (r == RESPIN_ENOTFOUND)
		return 0;
	if (r < 0)
		return r;
	warning_set_parse_lines(prev, old.details ? old.details : "");
	result_release(&old);
	return 1;
}

void guest_report_new(struct engine *e, const struct check *c, size_t i,
		      const struct warning_set *now,
		      const struct warning_set *prev)
{
	size_t w;

	for (w = 0; w < now->nr; w++)
		if (!warning_set_has(prev, now->items[w]))
			engine_report(e, c, i, "a new kernel warning: %s\n",
				      now->items[w]);
}

/* The runner's message lines ("respin-guest: ...") and what follows. */
static void report_runner(struct engine *e, const struct guest_run *g)
{
	const char *out = g->cmd.output.buf;
	const char *said = strstr(out, "respin-guest: ");

	while (said && said != out && said[-1] != '\n')
		said = strstr(said + 1, "respin-guest: ");
	if (said)
		run_tail_lines(&e->report, said, strlen(said), 30);
	else
		run_tail_lines(&e->report, out, g->cmd.output.len, 10);
	if (e->report.len && e->report.buf[e->report.len - 1] != '\n')
		strbuf_addch(&e->report, '\n');
}

/* The first line of the runner's words about how the guest ended. */
static void runner_reason(const struct guest_run *g, struct strbuf *out)
{
	const char *p = strstr(g->cmd.output.buf, "respin-guest: ");

	if (!p)
		return;
	p += strlen("respin-guest: ");
	strbuf_add(out, p, strcspn(p, "\n"));
}

int guest_judge(const struct check_job *j, const struct run_result *res,
		struct check_verdict *v)
{
	struct engine *e = j->e;
	const struct check *c = j->c;
	struct guest_run g;
	struct warning_set prev = { 0 };
	int r = 0;

	guest_run_parse(res, &g);
	if (g.ended) {
		r = check_kind_ops(c->kind)->judge(j, &g.cmd, v);
	} else if (res->timed_out || g.runner == 124) {
		v->status = RESULT_TIMEOUT;
		strbuf_addf(&v->summary, "timeout after %.0fs", c->timeout);
		engine_report(e, c, j->i, "TIMEOUT after %.0f s in the guest "
			      "(respin.check.%s.timeout)\n", c->timeout,
			      c->name);
		report_runner(e, &g);
	} else if (g.runner == 123) {
		struct strbuf why = STRBUF_INIT;

		runner_reason(&g, &why);
		v->status = RESULT_FAIL;
		strbuf_addstr(&v->summary, "guest stopped");
		engine_report(e, c, j->i, "FAIL: %s\n", why.len ? why.buf :
			      "the guest stopped while the command ran");
		report_runner(e, &g);
		strbuf_release(&why);
	} else {
		v->status = RESULT_ERROR;
		strbuf_addstr(&v->summary, g.runner == 125 ? "ERROR: the guest "
			      "did not run it" : "ERROR: the guest runner failed");
		engine_report(e, c, j->i, "ERROR: %s (respin-guest exit %d):\n",
			      g.runner == 125 ? "the guest never ran the command" :
			      g.runner == 127 ? "no guest runner" :
			      "the guest runner failed", g.runner);
		report_runner(e, &g);
	}
	/* a guest check's details: its kernel's warnings */
	strbuf_reset(&v->details);
	warning_set_format(&g.splats, &v->details);
	if (r >= 0 && g.splats.nr && v->status != RESULT_ERROR &&
	    v->status != RESULT_TIMEOUT) {
		r = guest_prev_splats(e, c, j->i, &prev);
		if (r > 0)
			guest_report_new(e, c, j->i, &g.splats, &prev);
		r = r < 0 ? r : 0;
	}
	warning_set_release(&prev);
	guest_run_release(&g);
	return r;
}
