// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The /init of respin's test initramfs (tools/respin-qemu-ktap).
 * Build it static: gcc -static -O2 -o init init.c
 *
 * Runs as PID 1 in a QEMU guest:
 *   - mounts proc, sysfs and devtmpfs where the kernel has them (a
 *     failure is only a diagnostic line);
 *   - runs every executable regular file directly in /tests, sorted by
 *     name (strcmp), one at a time, in /tests, in its own process
 *     group, stdin /dev/null, stdout and stderr to a pipe;
 *   - prints KTAP on the console between the lines "respin-ktap-begin"
 *     and "respin-ktap-end":
 *
 *         KTAP version 1
 *         1..N
 *             <the test's output: its own (K)TAP indented by four
 *              spaces, any other line as "    # line">
 *         ok 1 name              exit 0 and its TAP reported no failure
 *         ok 2 name # SKIP       exit 4 (KSFT_SKIP), or only skips
 *         not ok 3 name # exit=1
 *         not ok 4 name # TIMEOUT 45 seconds
 *
 *     A test is "ok" only if it exited 0 (or 4) *and* its own top-level
 *     TAP, if any, has no "not ok" (other than # TODO), no "Bail out!"
 *     and as many results as its plan;
 *   - kills a test's process group when it runs longer than the per-test
 *     timeout: the kernel command line's respin_timeout=SECS (the kernel
 *     hands unknown name=value parameters to init as environment; the
 *     default is 45 seconds, kselftest's);
 *   - while tests run, only emergency kernel messages reach the console
 *     (so the KTAP stays readable); the kernel's warnings and worse
 *     logged while a test ran are printed in its output as
 *     "    # kernel: text", and after "respin-ktap-end" every message
 *     logged during the tests, between "respin-dmesg-begin" / "-end"
 *     (both need /dev/kmsg, from devtmpfs);
 *   - ends the machine with reboot(RB_AUTOBOOT): QEMU's -no-reboot makes
 *     that an exit.  If that fails, RB_POWER_OFF, then it sleeps.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TESTS_DIR "/tests"
#define DEFAULT_TIMEOUT 45
#define KSFT_SKIP 4
#define LINE_MAX_LEN 4096

/* Writes all of buf to fd 1, retrying on EINTR and short writes. */
static void out_raw(const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(1, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		buf += n;
		len -= (size_t)n;
	}
}

/* One whole line at a time, so other console writers cannot split it. */
static void out(const char *fmt, ...)
{
	char buf[LINE_MAX_LEN + 64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	out_raw(buf, (size_t)n);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* fds 0-2 on the console, whatever the kernel managed to open. */
static void console_setup(void)
{
	int fd;

	if (fcntl(1, F_GETFD) >= 0)
		return;
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0)
		fd = open("/dev/ttyS0", O_RDWR | O_NOCTTY);
	if (fd < 0)
		return;
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
}

static void mount_one(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) < 0 && errno != EBUSY)
		out("# respin-init: mount %s on %s: %s", type, dir,
		    strerror(errno));
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted names of the executable regular files in dir. */
static size_t list_tests(const char *dir, char ***names)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0, alloc = 0;
	char **v = NULL;

	*names = NULL;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[LINE_MAX_LEN];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
		    !(st.st_mode & 0111))
			continue;
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			v = realloc(v, alloc * sizeof(*v));
			if (!v)
				break;
		}
		v[n++] = strdup(e->d_name);
	}
	closedir(d);
	if (v)
		qsort(v, n, sizeof(*v), cmp_names);
	*names = v;
	return v ? n : 0;
}

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int has_directive(const char *s, const char *what)
{
	const char *h = strchr(s, '#');
	size_t n = strlen(what);

	if (!h)
		return 0;
	h++;
	while (*h == ' ' || *h == '\t')
		h++;
	return !strncasecmp(h, what, n);
}

/* What a test said about itself at its own top level. */
struct tap_state {
	int ktap;		/* a "TAP version" / "KTAP version" was seen */
	int plan;		/* -1: none */
	int results, passed, failed, skipped;
	int bailed;
};

static int is_plan(const char *s)
{
	if (!starts_with(s, "1.."))
		return 0;
	for (s += 3; *s >= '0' && *s <= '9'; s++)
		;
	return *s == '\0' || *s == ' ' || *s == '#';
}

static int is_result(const char *s)
{
	return starts_with(s, "ok ") || starts_with(s, "not ok ") ||
	       !strcmp(s, "ok") || !strcmp(s, "not ok");
}

/* Is this line (the test's own, unindented) KTAP? */
static int is_ktap_line(const char *s)
{
	if (starts_with(s, "KTAP version ") || starts_with(s, "TAP version "))
		return 1;
	if (is_result(s) || is_plan(s) || starts_with(s, "Bail out!"))
		return 1;
	return s[0] == '#' || s[0] == ' ' || s[0] == '\t' || s[0] == '\0';
}

/*
 * Counts a line of the test's own top level.  Its (K)TAP starts at a
 * version line, or at a plan or result line (some kselftests, such as
 * 6.1's mremap_test, print no "TAP version").
 */
static void tap_line(struct tap_state *t, const char *s)
{
	if (starts_with(s, "KTAP version ") || starts_with(s, "TAP version ")) {
		t->ktap = 1;
		return;
	}
	if (!t->ktap && (is_plan(s) || is_result(s)))
		t->ktap = 1;
	if (!t->ktap)
		return;
	if (is_plan(s) && t->plan < 0) {
		t->plan = atoi(s + 3);
	} else if (starts_with(s, "ok ") || !strcmp(s, "ok")) {
		t->results++;
		if (has_directive(s, "SKIP"))
			t->skipped++;
		else
			t->passed++;
	} else if (starts_with(s, "not ok ") || !strcmp(s, "not ok")) {
		t->results++;
		if (has_directive(s, "SKIP"))
			t->skipped++;
		else if (!has_directive(s, "TODO") &&
			 !has_directive(s, "XFAIL"))
			t->failed++;
	} else if (starts_with(s, "Bail out!")) {
		t->bailed = 1;
	}
}

/* Prints one line of a test's output, nested one level down. */
static void emit_line(struct tap_state *t, char *s)
{
	size_t len = strlen(s);

	while (len > 0 && (s[len - 1] == '\r' || s[len - 1] == '\n'))
		s[--len] = '\0';
	tap_line(t, s);
	if (t->ktap && is_ktap_line(s))
		out("    %s", s);
	else if (s[0])
		out("    # %s", s);
	else
		out("    #");
}

struct outbuf {
	char buf[LINE_MAX_LEN];
	size_t len;
};

static void feed(struct tap_state *t, struct outbuf *b, const char *data,
		 size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = data[i];

		if (c == '\n' || b->len == sizeof(b->buf) - 1) {
			b->buf[b->len] = '\0';
			emit_line(t, b->buf);
			b->len = 0;
			if (c == '\n')
				continue;
		}
		if (c != '\0')
			b->buf[b->len++] = c;
	}
}

/* /dev/kmsg readers positioned at the start of the tests, or -1. */
static int kmsg_test = -1, kmsg_all = -1;

static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/*
 * Prints the kernel messages logged since the last call, at level
 * max_level or more urgent, each as prefix + text.  A /dev/kmsg record
 * is "PRI,SEQ,USEC,FLAGS;text\n" then " KEY=value" lines.
 */
static void kmsg_drain(int fd, int max_level, const char *prefix)
{
	char rec[8192];

	if (fd < 0)
		return;
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		char *text, *nl;

		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue;	/* EPIPE: overwritten, go on */
		if (n <= 0)
			break;
		rec[n] = '\0';
		text = strchr(rec, ';');
		if (!text || (atoi(rec) & 7) > max_level)
			continue;
		text++;
		nl = strchr(text, '\n');
		if (nl)
			*nl = '\0';
		out("%s%s", prefix, text);
	}
}

static void run_test(int num, const char *name, int timeout)
{
	struct tap_state t = { .plan = -1 };
	struct outbuf b = { .len = 0 };
	char path[LINE_MAX_LEN], reason[128] = "";
	int fds[2], status = 0, timed_out = 0, open_pipe = 1, exited = 0;
	double deadline, grace = 0;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", TESTS_DIR, name);
	out("# respin-init: running %s", name);
	if (pipe2(fds, O_CLOEXEC) < 0) {
		out("not ok %d %s # ERROR pipe: %s", num, name,
		    strerror(errno));
		return;
	}
	pid = fork();
	if (pid < 0) {
		out("not ok %d %s # ERROR fork: %s", num, name,
		    strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);
		char *argv[] = { path, NULL };

		setpgid(0, 0);
		if (devnull >= 0)
			dup2(devnull, 0);
		else
			close(0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		signal(SIGPIPE, SIG_DFL);
		if (chdir(TESTS_DIR) < 0)
			_exit(126);
		execv(path, argv);
		dprintf(2, "exec %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	close(fds[1]);
	deadline = now() + timeout;

	/*
	 * Read until the test has exited and the pipe is at EOF, or half a
	 * second after it exited (something it left behind holds the pipe),
	 * or the deadline.
	 */
	for (;;) {
		if (!exited) {
			pid_t w = waitpid(pid, &status, WNOHANG);

			if (w == pid || (w < 0 && errno != EINTR)) {
				if (w < 0)
					status = 0;
				exited = 1;
				grace = now() + 0.5;
			}
		}
		if (exited && (!open_pipe || now() >= grace))
			break;
		if (!exited && now() >= deadline) {
			timed_out = 1;
			break;
		}
		if (open_pipe) {
			struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
			char data[4096];
			ssize_t n;

			if (poll(&pfd, 1, 100) <= 0)
				continue;
			n = read(fds[0], data, sizeof(data));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				open_pipe = 0;
			else
				feed(&t, &b, data, (size_t)n);
		} else {
			usleep(20000);
		}
	}
	if (timed_out) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	/* Whatever the group left in the pipe, without blocking. */
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	for (;;) {
		char data[4096];
		ssize_t n = read(fds[0], data, sizeof(data));

		if (n <= 0)
			break;
		feed(&t, &b, data, (size_t)n);
	}
	close(fds[0]);
	if (b.len) {
		b.buf[b.len] = '\0';
		emit_line(&t, b.buf);
	}
	/* Reap anything else of the group still running, quietly. */
	kill(-pid, SIGKILL);
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	/* Kernel warnings and worse from the test's time, as its diagnostics. */
	kmsg_drain(kmsg_test, 4, "    # kernel: ");

	if (timed_out) {
		out("not ok %d %s # TIMEOUT %d seconds", num, name, timeout);
		return;
	}
	if (WIFSIGNALED(status)) {
		snprintf(reason, sizeof(reason), " # exit=signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
		out("not ok %d %s%s", num, name, reason);
		return;
	}
	if (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != KSFT_SKIP) {
		out("not ok %d %s # exit=%d", num, name, WEXITSTATUS(status));
		return;
	}
	if (t.failed) {
		out("not ok %d %s # exit=%d, %d of its tests failed", num,
		    name, WEXITSTATUS(status), t.failed);
		return;
	}
	if (t.bailed) {
		out("not ok %d %s # exit=%d, it bailed out", num, name,
		    WEXITSTATUS(status));
		return;
	}
	if (t.plan >= 0 && t.results != t.plan) {
		out("not ok %d %s # exit=%d, %d results for a plan of %d", num,
		    name, WEXITSTATUS(status), t.results, t.plan);
		return;
	}
	if (WEXITSTATUS(status) == KSFT_SKIP ||
	    (t.results > 0 && t.passed == 0) || (t.ktap && t.plan == 0))
		out("ok %d %s # SKIP", num, name);
	else
		out("ok %d %s", num, name);
}

static void finish(void)
{
	sync();
	reboot(RB_AUTOBOOT);
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}

int main(void)
{
	const char *env_timeout = getenv("respin_timeout");
	int timeout = DEFAULT_TIMEOUT;
	char **names;
	size_t n;

	console_setup();
	mount_one("proc", "/proc", "proc");
	mount_one("sysfs", "/sys", "sysfs");
	mount_one("devtmpfs", "/dev", "devtmpfs");
	console_setup();
	setenv("PATH", "/tests:/bin:/sbin:/usr/bin", 1);
	if (!getenv("HOME"))
		setenv("HOME", "/", 1);
	if (env_timeout && atoi(env_timeout) > 0)
		timeout = atoi(env_timeout);

	n = list_tests(TESTS_DIR, &names);
	/*
	 * Only emergencies on the console while the tests run: other
	 * kernel messages would break into the KTAP.  Warnings and worse
	 * go with the test they happened in, all of them after the end.
	 */
	kmsg_test = kmsg_open();
	kmsg_all = kmsg_open();
	klogctl(8 /* SYSLOG_ACTION_CONSOLE_LEVEL */, NULL, 1);
	out("respin-ktap-begin");
	out("KTAP version 1");
	out("1..%zu", n);
	for (size_t i = 0; i < n; i++)
		run_test((int)i + 1, names[i], timeout);
	out("respin-ktap-end");
	klogctl(7 /* SYSLOG_ACTION_CONSOLE_ON */, NULL, 0);
	out("respin-dmesg-begin");
	kmsg_drain(kmsg_all, 7, "");
	out("respin-dmesg-end");
	finish();
	return 0;
}
