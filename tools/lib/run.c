// SPDX-License-Identifier: GPL-2.0-or-later
#include "run.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void run_result_init(struct run_result *r)
{
	memset(r, 0, sizeof(*r));
	strbuf_init(&r->output, 0);
}

void run_result_release(struct run_result *r)
{
	strbuf_release(&r->output);
	memset(r, 0, sizeof(*r));
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Writes to the job's stdin, which may have exited without reading it
 * all (sh -c 'exit 127' does): respin must not die of the SIGPIPE.  It
 * is blocked in this thread for the write; one the write raised is
 * taken before the mask is put back.  The EPIPE is the caller's.
 */
static ssize_t write_input(int fd, const char *buf, size_t len)
{
	sigset_t pipe_set, old;
	ssize_t n;
	int err;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	n = write(fd, buf, len);
	err = errno;
	if (n < 0 && err == EPIPE) {
		const struct timespec zero = { 0, 0 };

		while (sigtimedwait(&pipe_set, NULL, &zero) < 0 &&
		       errno == EINTR)
			;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = err;
	return n;
}

static void child(const struct run_opts *o, int in_fd, int out_fd)
{
	size_t i;

	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL);
	if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
		_exit(127);
	if (in_fd > 2)
		close(in_fd);
	if (out_fd > 2)
		close(out_fd);
	if (o->cwd && chdir(o->cwd) < 0) {
		dprintf(2, "respin: cannot enter %s: %s\n", o->cwd,
			strerror(errno));
		_exit(127);
	}
	for (i = 0; o->env && o->env[i]; i++)
		putenv((char *)o->env[i]);
	execvp(o->argv[0], (char *const *)o->argv);
	dprintf(2, "respin: cannot run %s: %s\n", o->argv[0], strerror(errno));
	_exit(127);
}

static void keep_tail(struct strbuf *out, size_t max)
{
	if (out->len > max) {
		size_t cut = out->len - max / 2;

		memmove(out->buf, out->buf + cut, out->len - cut);
		strbuf_setlen(out, out->len - cut);
	}
}

/*
 * The first signal caught, read by the -j lint threads too: atomic
 * loads and stores (lock-free for an int, so safe in the handler), not
 * a volatile sig_atomic_t, which is safe for the handler but a data
 * race between threads.
 */
static int caught_sig;

static int caught(void)
{
	return __atomic_load_n(&caught_sig, __ATOMIC_SEQ_CST);
}

static void on_signal(int sig)
{
	int none = 0;

	__atomic_compare_exchange_n(&caught_sig, &none, sig, 0,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

void run_signals_catch(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(*sigs); i++) {
		struct sigaction old, sa;

		if (sigaction(sigs[i], NULL, &old) < 0 ||
		    old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESTART;
		sigaction(sigs[i], &sa, NULL);
	}
}

int run_interrupted(void)
{
	return caught();
}

int run_error_interrupted(void)
{
	int sig = caught();

	return error("interrupted by %s", sig == SIGINT ? "SIGINT" :
		     sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" :
		     "a signal");
}

/* Ending a process group: SIGTERM, then SIGKILL two seconds later. */
struct group {
	pid_t pid;
	int ending;
	double kill_at;
};

static void group_end(struct group *g, double t)
{
	if (g->ending)
		return;
	kill(-g->pid, SIGTERM);
	g->ending = 1;
	g->kill_at = t + 2;
}

static void group_tick(struct group *g, double t)
{
	if (g->ending && t >= g->kill_at) {
		kill(-g->pid, SIGKILL);
		g->kill_at = t + 3600;
	}
}

/* Whether the leader has exited; it stays a zombie (its pid reserved). */
static int leader_exited(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	return !waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) &&
	       si.si_pid == pid;
}

/* A job running: its pipes, its group and where its clock stands. */
struct job {
	pid_t pid;
	int out, in;		/* our ends; -1 once closed */
	size_t written;		/* of o->input */
	double start, deadline, grace_end;	/* deadline 0: none */
	int leader_done, timed_out, interrupted;
	struct group g;
};

/* Forks the program in a group of its own, its output into j->out. */
static int job_start(const struct run_opts *o, struct job *j)
{
	int out[2], in[2] = { -1, -1 };

	/* close-on-exec: a job started by another thread must not hold these */
	if (pipe2(out, O_CLOEXEC) < 0)
		return error_errno("cannot make a pipe");
	if (o->input) {
		if (pipe2(in, O_CLOEXEC) < 0) {
			close(out[0]);
			close(out[1]);
			return error_errno("cannot make a pipe");
		}
	} else {
		in[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	}
	j->pid = fork();
	if (j->pid < 0) {
		error_errno("cannot fork");
		close(out[0]);
		close(out[1]);
		if (in[0] >= 0)
			close(in[0]);
		if (in[1] >= 0)
			close(in[1]);
		return RESPIN_ERR;
	}
	if (!j->pid) {
		close(out[0]);
		if (in[1] >= 0)
			close(in[1]);
		child(o, in[0], out[1]);
	}
	setpgid(j->pid, j->pid);	/* also here: no race with the child */
	j->g.pid = j->pid;
	if (o->started)
		o->started((long)j->pid, o->data);
	close(out[1]);
	if (in[0] >= 0)
		close(in[0]);
	if (in[1] >= 0)
		fcntl(in[1], F_SETFL, O_NONBLOCK);
	if (o->input && !o->input_len) {
		close(in[1]);
		in[1] = -1;
	}
	j->out = out[0];
	j->in = in[1];
	return 0;
}

/*
 * The group's clock at t: a signal caught or the timeout ends the
 * group; with the leader gone (when watch_leader), what it left
 * holding the output gets a second.
 */
static void job_tick(struct job *j, double t, int watch_leader)
{
	if (watch_leader && !j->leader_done && leader_exited(j->pid)) {
		j->leader_done = 1;
		j->grace_end = t + 1;
	}
	if (caught() && !j->interrupted) {
		j->interrupted = 1;
		group_end(&j->g, t);
	}
	if (!j->leader_done && j->deadline && t >= j->deadline &&
	    !j->g.ending) {
		j->timed_out = 1;
		group_end(&j->g, t);
	}
	if (watch_leader && j->leader_done && t >= j->grace_end)
		group_end(&j->g, t);
	group_tick(&j->g, t);
}

/* Feeds stdin, reads stdout and stderr; 0 once the output is closed. */
static int job_io(const struct run_opts *o, struct job *j,
		  struct strbuf *output, size_t max)
{
	struct pollfd fds[2];
	int nfds = 0, ms = 100;
	double t = now();

	job_tick(j, t, 1);
	if (j->deadline && !j->g.ending && !j->leader_done &&
	    (j->deadline - t) * 1000 < ms)
		ms = (int)((j->deadline - t) * 1000) + 1;
	fds[nfds].fd = j->out;
	fds[nfds++].events = POLLIN;
	if (j->in >= 0) {
		fds[nfds].fd = j->in;
		fds[nfds++].events = POLLOUT;
	}
	if (poll(fds, (nfds_t)nfds, ms) < 0)
		return errno == EINTR;
	if (nfds > 1 && fds[1].revents) {
		ssize_t n = write_input(j->in, o->input + j->written,
					o->input_len - j->written);

		if (n > 0)
			j->written += (size_t)n;
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			j->written = o->input_len;
		if (j->written >= o->input_len) {
			close(j->in);
			j->in = -1;
		}
	}
	if (fds[0].revents) {
		ssize_t n;

		strbuf_grow(output, 65536);
		n = read(j->out, output->buf + output->len, 65536);
		if (n > 0) {
			strbuf_setlen(output, output->len + (size_t)n);
			keep_tail(output, max);
		} else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
			return 0;
		}
	}
	return 1;
}

int run_program(const struct run_opts *o, struct run_result *res)
{
	size_t max = o->max_output ? o->max_output : 64 << 20;
	struct job j;
	int status = 0, r;

	if (caught())
		return run_error_interrupted();
	memset(&j, 0, sizeof(j));
	j.start = now();
	j.deadline = o->timeout > 0 ? j.start + o->timeout : 0;
	r = job_start(o, &j);
	if (r < 0)
		return r;
	while (job_io(o, &j, &res->output, max))
		;
	close(j.out);
	if (j.in >= 0)
		close(j.in);
	/* the leader may outlive its output */
	for (;;) {
		pid_t w = waitpid(j.pid, &status, WNOHANG);

		if (w == j.pid || (w < 0 && errno != EINTR))
			break;
		job_tick(&j, now(), 0);
		usleep(20000);
	}
	/* nothing of the job may outlive it: strays, or all on a timeout */
	kill(-j.pid, SIGKILL);
	res->seconds = now() - j.start;
	res->timed_out = j.timed_out;
	if (WIFEXITED(status)) {
		res->exited = 1;
		res->exit_code = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		res->signal = WTERMSIG(status);
	}
	if (j.interrupted)
		return run_error_interrupted();
	return 0;
}

void run_tail_lines(struct strbuf *out, const char *text, size_t len, int n)
{
	const char *p = text + len;
	int lines = 0;

	while (p > text && (p[-1] == '\n'))
		p--;
	while (p > text) {
		if (p[-1] == '\n' && ++lines >= n)
			break;
		p--;
	}
	strbuf_add(out, p, (size_t)(text + len - p));
}

int run_interactive(const char *const *argv)
{
	int status = 0, err_pipe[2], err = 0;
	ssize_t n;
	pid_t pid;

	if (pipe2(err_pipe, O_CLOEXEC) < 0)
		return error_errno("cannot run %s", argv[0]);
	pid = fork();
	if (pid < 0) {
		close(err_pipe[0]);
		close(err_pipe[1]);
		return error_errno("cannot run %s", argv[0]);
	}
	if (pid == 0) {
		close(err_pipe[0]);
		execvp(argv[0], (char *const *)argv);
		err = errno;
		if (write(err_pipe[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(err_pipe[1]);
	do {
		n = read(err_pipe[0], &err, sizeof(err));
	} while (n < 0 && errno == EINTR);
	close(err_pipe[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error_errno("cannot wait for %s", argv[0]);
	if (n == (ssize_t)sizeof(err))
		return error("cannot run %s: %s", argv[0], strerror(err));
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int run_checked(const char *const *argv, const char *cwd, const char *what)
{
	struct run_opts o = { 0 };
	struct run_result res;
	int r;

	o.argv = argv;
	o.cwd = cwd;
	o.timeout = 600;
	run_result_init(&res);
	r = run_program(&o, &res);
	if (!r && (!res.exited || res.exit_code)) {
		strbuf_rtrim(&res.output);
		r = what ? error("%s: %s", what, res.output.buf) : RESPIN_ERR;
	}
	run_result_release(&res);
	return r;
}
