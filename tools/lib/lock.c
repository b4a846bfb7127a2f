// SPDX-License-Identifier: GPL-2.0-or-later
#include "lock.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

void lock_holder_release(struct lock_holder *h)
{
	free(h->what);
	free(h->running);
	memset(h, 0, sizeof(*h));
}

static void holder_read(int fd, struct lock_holder *h)
{
	struct strbuf text = STRBUF_INIT;
	char *p, *nl;

	memset(h, 0, sizeof(*h));
	if (lseek(fd, 0, SEEK_SET) < 0 || strbuf_read_fd(&text, fd) < 0)
		goto out;
	for (p = text.buf; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = '\0';
		if (!strncmp(p, "pid ", 4))
			h->pid = (pid_t)atol(p + 4);
		else if (!strncmp(p, "group ", 6))
			h->group = (pid_t)atol(p + 6);
		else if (!strncmp(p, "what ", 5) && !h->what)
			h->what = xstrdup(p + 5);
		else if (!strncmp(p, "since ", 6))
			h->since = atoll(p + 6);
		else if (!strncmp(p, "running ", 8) && !h->running)
			h->running = xstrdup(p + 8);
	}
	if (h->pid > 0)
		h->alive = !kill(h->pid, 0) || errno == EPERM;
out:
	strbuf_release(&text);
}

static void write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		buf += n;
		len -= (size_t)n;
	}
}

static struct strbuf *head_of(struct lock_file *lk, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT;
	const char *p = NULL;
	int lines = 0;

	if (lseek(lk->fd, 0, SEEK_SET) >= 0 && strbuf_read_fd(&text, lk->fd) >= 0)
		for (p = text.buf; *p && lines < 3; p++)
			lines += *p == '\n';
	if (p)
		strbuf_add(out, text.buf, (size_t)(p - text.buf));
	strbuf_release(&text);
	return out;
}

static void rewrite(struct lock_file *lk, const struct strbuf *text)
{
	if (ftruncate(lk->fd, 0) < 0 || lseek(lk->fd, 0, SEEK_SET) < 0)
		return;
	write_all(lk->fd, text->buf, text->len);
}

int lock_take(struct lock_file *lk, const char *path, const char *what,
	      int wait, int (*stop)(void), struct lock_holder *h)
{
	struct strbuf text = STRBUF_INIT;
	int fd, tries = 0;

	lk->fd = -1;
	free(lk->path);
	lk->path = xstrdup(path);
	/* no O_CLOEXEC: what respin runs holds the lock too */
	fd = open(path, O_RDWR | O_CREAT, 0666);
	if (fd < 0)
		return error_errno("cannot open the lock %s", path);
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			error_errno("cannot lock %s", path);
			close(fd);
			return RESPIN_ERR;
		}
		if (!wait || (stop && stop())) {
			if (h) {
				/* the holder writes its name just after taking it */
				do {
					holder_read(fd, h);
					if (h->pid || ++tries > 20)
						break;
					lock_holder_release(h);
					usleep(10000);
				} while (1);
			}
			close(fd);
			return 1;
		}
		usleep(100000);
	}
	lk->fd = fd;
	strbuf_addf(&text, "pid %ld\nwhat %s\nsince %lld\n", (long)getpid(),
		    what, (long long)time(NULL));
	rewrite(lk, &text);
	strbuf_release(&text);
	return 0;
}

void lock_note(struct lock_file *lk, const char *text)
{
	struct strbuf all = STRBUF_INIT;

	if (lk->fd < 0)
		return;
	head_of(lk, &all);
	strbuf_addstr(&all, text);
	rewrite(lk, &all);
	strbuf_release(&all);
}

void lock_release(struct lock_file *lk)
{
	if (lk->fd >= 0) {
		/*
		 * The file stays (removing it would race with a new
		 * taker); emptied, it names no one.  A failure is harmless:
		 * the next holder rewrites it.
		 */
		int gone = ftruncate(lk->fd, 0);

		(void)gone;
		close(lk->fd);
	}
	lk->fd = -1;
	free(lk->path);
	lk->path = NULL;
}

int lock_error_git(const char *what, const char *lock)
{
	const git_error *e = git_error_last();
	const char *msg = e && e->message ? e->message : "";
	const char *q = strchr(msg, '\''), *q2 = q ? strchr(q + 1, '\'') : NULL;
	char *file = q2 ? xstrndup(q + 1, (size_t)(q2 - q - 1)) :
		     lock ? xstrdup(lock) : NULL;

	if (file) {
		error("%s: it is locked: %s exists", what, file);
		error_hint("another git or respin is writing it now, or one was "
			   "killed while it did; if none is running, remove %s "
			   "and try again", file);
	} else {
		error("%s: it is locked (%s)", what, msg);
		error_hint("another git or respin is writing it now, or one was "
			   "killed while it did; try again when none is running");
	}
	free(file);
	return RESPIN_ERR;
}
