// SPDX-License-Identifier: GPL-2.0-or-later
#include "patches/email.h"
#include "review/drafts.h"
#include "review/reply.h"
#include "tools/lib/error.h"
#include "tools/lib/fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Appends the draft to an mbox in one write (a mail client's drafts). */
int drafts_mbox_append(const char *path, const char *text, size_t len)
{
	struct strbuf mb = STRBUF_INIT;
	ssize_t w;
	int fd, r = 0;

	strbuf_addstr(&mb, "From mboxrd@z Thu Jan  1 00:00:00 1970\n");
	email_mboxrd_append(&mb, text, len);
	/* the blank line before the next "From " */
	if (mb.len && mb.buf[mb.len - 1] != '\n')
		strbuf_addch(&mb, '\n');
	strbuf_addch(&mb, '\n');
	r = mkdir_leading(path);
	if (r < 0) {
		strbuf_release(&mb);
		return r;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd < 0) {
		strbuf_release(&mb);
		return error_errno("cannot open %s", path);
	}
	w = write(fd, mb.buf, mb.len);
	if (w != (ssize_t)mb.len) {
		r = w < 0 ? error_errno("cannot write %s", path)
			  : error("cannot write %s: short write", path);
		/* take back what part of the draft got in */
		if (w > 0) {
			struct stat st;

			if (!fstat(fd, &st) && st.st_size >= w &&
			    ftruncate(fd, st.st_size - w) < 0)
				error_clear();
		}
	} else if (fsync(fd) < 0 && errno != EINVAL) {
		r = error_errno("cannot write %s", path);
	}
	if (close(fd) < 0 && !r)
		r = error_errno("cannot write %s", path);
	strbuf_release(&mb);
	return r;
}

/* Puts the draft into DIR/cur as a draft (flag D), through DIR/tmp. */
int drafts_maildir_put(const char *dir, const char *text, size_t len,
		       int64_t when, struct strbuf *where)
{
	struct strbuf tmp = STRBUF_INIT, sub = STRBUF_INIT;
	struct strbuf name = STRBUF_INIT;
	const char *subs[] = { "tmp", "new", "cur" };
	char host[256];
	size_t i;
	int r = 0;

	if (gethostname(host, sizeof(host)) < 0)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	for (i = 0; host[i]; i++)
		if (host[i] == '/' || host[i] == ':')
			host[i] = '_';
	for (i = 0; i < 3; i++) {
		strbuf_reset(&sub);
		strbuf_addf(&sub, "%s/%s", dir, subs[i]);
		r = mkdir_parents(sub.buf);
		if (r < 0)
			goto out;
	}
	reply_make_message_id(&name, NULL, when);
	/* "TIME.PID.RANDOM@respin.localhost": keep the part before '@' */
	strbuf_setlen(&name, (size_t)(strchr(name.buf, '@') - name.buf));
	strbuf_addf(&name, ".respin.%s", host);
	strbuf_addf(&tmp, "%s/tmp", dir);
	strbuf_addf(where, "%s/cur/%s:2,D", dir, name.buf);
	r = write_file_atomic(where->buf, tmp.buf, text, len, 0600);
out:
	strbuf_release(&tmp);
	strbuf_release(&sub);
	strbuf_release(&name);
	return r;
}


int drafts_write(const char *mbox, const char *maildir, const char *text,
		 size_t len, int64_t when, const char *id, struct strbuf *out)
{
	struct strbuf where = STRBUF_INIT, name = STRBUF_INIT;
	int r = 0;

	if (id)
		strbuf_addf(&name, " <%s>", id);
	if (mbox) {
		r = drafts_mbox_append(mbox, text, len);
		if (!r)
			strbuf_addf(out, "draft%s appended to %s\n", name.buf,
				    mbox);
	} else if (maildir) {
		r = drafts_maildir_put(maildir, text, len, when, &where);
		if (!r)
			strbuf_addf(out, "draft%s in %s\n", name.buf,
				    where.buf);
	} else {
		strbuf_add(out, text, len);
	}
	strbuf_release(&where);
	strbuf_release(&name);
	return r;
}
