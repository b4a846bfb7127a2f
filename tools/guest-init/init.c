// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The guest's PID 1 for tools/respin-guest, run by the kernel from the
 * host's root filesystem (9p, read-only).  Build it static:
 * gcc -static -O2 -o init init.c (respin-guest does, and caches it).
 *
 * A program, not a shell script: under TCG every exec of a dynamically
 * linked host program costs a tenth of a second or more, and a script
 * doing this set-up ran about thirty of them (4 s, measured).
 *
 *  1. mounts proc, sysfs, devtmpfs (unless the kernel did), devpts,
 *     and a tmpfs on /run and on /dev/shm;
 *  2. mounts respin-guest's exchange directory (9p tag "respinio") on
 *     /run/respin/io and reads the job: the files argv, env, cwd and
 *     shares, each a list of NUL-terminated strings (never the kernel
 *     command line: the strings arrive as they were given);
 *  3. makes /tmp, /var/tmp, /root, /mnt, /var/log and /var/cache
 *     writable, each an overlay of a tmpfs upon the host's directory
 *     (the host's files stay visible, what the guest writes stays in
 *     its memory), or a plain tmpfs when the kernel has no overlayfs,
 *     with the cwd bound back in from the host's root when it lies
 *     below;
 *  4. mounts each shared directory read-write at its own path (9p
 *     tags share0, share1, ...);
 *  5. runs the command as root in the cwd, in a session of its own,
 *     with only PATH, HOME=/root and the job's variables (which win),
 *     stdin /dev/null, stdout and stderr into io/stdout and io/stderr;
 *     a command that cannot be run exits 127 (126 when it is there but
 *     cannot be executed), as a shell's would;
 *  6. writes the kernel log (all levels, as dmesg prints it) to
 *     io/dmesg, then the exit status (128 + N for a signal N) to
 *     io/status, last: the runner takes it as the sign that the
 *     command ended; then restarts the machine (QEMU's -no-reboot
 *     makes that an exit).
 *
 * io/ready is written just before the command starts; a step that
 * fails before it writes io/setup-error with the reason, and the
 * machine stops.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define IO "/run/respin/io"
#define HOST "/run/respin/host"
#define RW "/run/respin/rw"
#define P9_OPTS "trans=virtio,version=9p2000.L,msize=262144"
#define DEFAULT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

static const char *const writable[] = {
	"/tmp", "/var/tmp", "/root", "/mnt", "/var/log", "/var/cache",
};

static int io_mounted;

static void stop_machine(void)
{
	sync();
	reboot(RB_AUTOBOOT);
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}

static void write_file(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return;
	while (len) {
		ssize_t n = write(fd, text, len);

		if (n <= 0)
			break;
		text += n;
		len -= (size_t)n;
	}
	close(fd);
}

/* A set-up step failed: the console and io/setup-error say why. */
static void __attribute__((noreturn, format(printf, 1, 2)))
setup_failed(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n > sizeof(msg) - 2)
		n = (int)sizeof(msg) - 2;
	msg[n++] = '\n';
	msg[n] = '\0';
	dprintf(2, "respin-guest-init: %s", msg);
	if (io_mounted)
		write_file(IO "/setup-error", msg, (size_t)n);
	stop_machine();
	exit(1);
}

/* mkdir -p */
static int make_dirs(const char *path)
{
	char buf[4096];
	size_t k, n = strlen(path);

	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, path, n + 1);
	for (k = 1; k <= n; k++) {
		if (buf[k] != '/' && buf[k] != '\0')
			continue;
		buf[k] = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -1;
		buf[k] = path[k];
	}
	return 0;
}

static void must_mount(const char *src, const char *dir, const char *type,
		       unsigned long flags, const char *data, const char *why)
{
	if (mount(src, dir, type, flags, data) < 0)
		setup_failed("cannot mount %s on %s: %s%s", type ? type : src,
			     dir, strerror(errno), why ? why : "");
}

/* A list of NUL-terminated strings from io/NAME, NULL-ended. */
static char **read_list(const char *name, size_t *nr)
{
	char path[256], *buf = NULL, **v;
	size_t len = 0, alloc = 0, k, n = 0;
	int fd;

	snprintf(path, sizeof(path), IO "/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		setup_failed("cannot read %s: %s", path, strerror(errno));
	for (;;) {
		ssize_t got;

		if (alloc - len < 4096) {
			alloc = alloc ? 2 * alloc : 8192;
			buf = realloc(buf, alloc);
			if (!buf)
				setup_failed("out of memory");
		}
		got = read(fd, buf + len, alloc - len - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			setup_failed("cannot read %s: %s", path,
				     strerror(errno));
		if (!got)
			break;
		len += (size_t)got;
	}
	close(fd);
	for (k = 0; k < len; k++)
		n += !buf[k];
	v = calloc(n + 1, sizeof(*v));
	if (!v)
		setup_failed("out of memory");
	for (k = 0, n = 0; k < len; k += strlen(buf + k) + 1)
		v[n++] = buf + k;
	*nr = n;
	return v;
}

/* Whether path is dir or below it. */
static int below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

static void make_writable(const char *cwd)
{
	char up[64], work[64], opts[256], host[4200];
	size_t k;

	for (k = 0; k < sizeof(writable) / sizeof(*writable); k++) {
		const char *d = writable[k];
		struct stat st;

		snprintf(up, sizeof(up), RW "/%zu/upper", k);
		snprintf(work, sizeof(work), RW "/%zu/work", k);
		snprintf(opts, sizeof(opts),
			 "lowerdir=%s,upperdir=%s,workdir=%s", d, up, work);
		if (make_dirs(up) < 0 || make_dirs(work) < 0)
			setup_failed("cannot make %s: %s", up, strerror(errno));
		if (!stat(d, &st) && S_ISDIR(st.st_mode) &&
		    !mount("overlay", d, "overlay", 0, opts))
			continue;
		/* no overlayfs: an empty tmpfs, the cwd shown again */
		make_dirs(d);
		must_mount("tmpfs", d, "tmpfs", 0, "mode=1777", NULL);
		if (below(cwd, d)) {
			snprintf(host, sizeof(host), HOST "%s", cwd);
			if (make_dirs(cwd) < 0 ||
			    mount(host, cwd, NULL, MS_BIND, NULL) < 0)
				setup_failed("cannot show %s below the tmpfs on "
					     "%s: %s", cwd, d, strerror(errno));
		}
	}
	chmod("/tmp", 01777);
	chmod("/var/tmp", 01777);
	chmod("/root", 0700);
}

static void mount_shares(char **shares, size_t nr)
{
	size_t k;

	for (k = 0; k + 1 < nr; k += 2) {
		make_dirs(shares[k + 1]);
		if (mount(shares[k], shares[k + 1], "9p", 0, P9_OPTS) < 0)
			setup_failed("cannot mount the shared directory %s: %s",
				     shares[k + 1], strerror(errno));
	}
}

/* The command's environment: PATH, HOME, then the job's (which win). */
static char **environment(char **env, size_t nr)
{
	char **v = calloc(nr + 3, sizeof(*v));
	size_t n = 0, k, j;

	if (!v)
		setup_failed("out of memory");
	v[n++] = "PATH=" DEFAULT_PATH;
	v[n++] = "HOME=/root";
	for (k = 0; k < nr; k++) {
		size_t name = strcspn(env[k], "=");

		for (j = 0; j < n; j++)
			if (!strncmp(v[j], env[k], name + 1))
				break;
		v[j] = env[k];
		if (j == n)
			n++;
	}
	v[n] = NULL;
	return v;
}

static int run_command(char **argv, char **envp)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		setup_failed("cannot fork: %s", strerror(errno));
	if (!pid) {
		int in = open("/dev/null", O_RDONLY);
		int out = open(IO "/stdout", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int err = open(IO "/stderr", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		const char *path = DEFAULT_PATH;
		size_t k;

		if (in < 0 || out < 0 || err < 0 || dup2(in, 0) < 0 ||
		    dup2(out, 1) < 0 || dup2(err, 2) < 0)
			_exit(125);
		close(in);
		close(out);
		close(err);
		setsid();
		/* the command's own PATH finds it */
		for (k = 0; envp[k]; k++)
			if (!strncmp(envp[k], "PATH=", 5))
				path = envp[k] + 5;
		setenv("PATH", path, 1);
		execvpe(argv[0], argv, envp);
		dprintf(2, "respin-guest-init: %s: %s\n", argv[0],
			strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	/* PID 1 inherits orphans: reap them until the command ends */
	for (;;) {
		pid_t got = wait(&status);

		if (got == pid)
			break;
		if (got < 0 && errno != EINTR)
			return 125;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/*
 * The kernel log as dmesg prints it, "[    1.234567] text" a line,
 * from /dev/kmsg: every record still in the buffer, all levels.
 */
static void save_dmesg(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int out = open(IO "/dmesg", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		       0644);
	char rec[8192], line[8300];

	if (out < 0)
		return;
	while (fd >= 0) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		unsigned long long usec = 0;
		char *semi, *text, *nl, *p;
		int len;

		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten meanwhile: the next */
		if (n <= 0)
			break;
		rec[n] = '\0';
		/* "LEVEL,SEQ,USEC,FLAGS;text\n" then " KEY=VALUE" lines */
		semi = strchr(rec, ';');
		if (!semi)
			continue;
		p = strchr(rec, ',');
		if (p && (p = strchr(p + 1, ',')))
			usec = strtoull(p + 1, NULL, 10);
		text = semi + 1;
		nl = strchr(text, '\n');
		if (nl)
			*nl = '\0';
		len = snprintf(line, sizeof(line), "[%5llu.%06llu] %s\n",
			       usec / 1000000, usec % 1000000, text);
		if (len > 0 && write(out, line, (size_t)len) < 0)
			break;
	}
	if (fd >= 0)
		close(fd);
	close(out);
}

int main(void)
{
	char **argv, **env, **cwd, **shares, **envp;
	size_t nargv, nenv, ncwd, nshares;
	char status[16];
	int rc, fd;

	must_mount("proc", "/proc", "proc", 0, NULL, NULL);
	must_mount("sysfs", "/sys", "sysfs", 0, NULL, NULL);
	if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) < 0 &&
	    errno != EBUSY && access("/dev/null", F_OK) < 0)
		setup_failed("cannot mount devtmpfs on /dev: %s "
			     "(CONFIG_DEVTMPFS)", strerror(errno));
	must_mount("tmpfs", "/run", "tmpfs", 0, "mode=0755",
		   " (CONFIG_TMPFS)");
	mkdir("/dev/pts", 0755);
	mkdir("/dev/shm", 01777);
	mount("devpts", "/dev/pts", "devpts", 0, "newinstance,ptmxmode=0666");
	must_mount("tmpfs", "/dev/shm", "tmpfs", 0, "mode=1777", NULL);
	if (make_dirs(IO) < 0 || make_dirs(HOST) < 0)
		setup_failed("cannot make " IO ": %s", strerror(errno));
	must_mount("respinio", IO, "9p", 0, P9_OPTS,
		   " (the exchange directory, 9p tag respinio)");
	io_mounted = 1;

	argv = read_list("argv", &nargv);
	env = read_list("env", &nenv);
	cwd = read_list("cwd", &ncwd);
	shares = read_list("shares", &nshares);
	if (!nargv || ncwd != 1)
		setup_failed("a bad job: %zu arguments, %zu directories",
			     nargv, ncwd);

	/* the host's root once more, below what is mounted over it */
	must_mount("/", HOST, NULL, MS_BIND, NULL, NULL);
	make_writable(cwd[0]);
	mount_shares(shares, nshares);
	if (chdir(cwd[0]) < 0)
		setup_failed("no directory %s in the guest: %s", cwd[0],
			     strerror(errno));
	envp = environment(env, nenv);

	fd = open(IO "/ready", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		setup_failed("cannot write to the exchange directory: %s",
			     strerror(errno));
	close(fd);
	rc = run_command(argv, envp);

	save_dmesg();
	snprintf(status, sizeof(status), "%d\n", rc);
	write_file(IO "/status.tmp", status, strlen(status));
	rename(IO "/status.tmp", IO "/status");
	stop_machine();
	return 0;
}
