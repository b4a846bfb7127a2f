// SPDX-License-Identifier: GPL-2.0-or-later
#include "lore.h"
#include "error.h"
#include "fs.h"
#include "http.h"
#include "limits.h"
#include "strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* What public-inbox leaves alone in a Message-ID inside a URL path. */
static int mid_char_ok(unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9'))
		return 1;
	return c && strchr("-._~!$&'()*+,;=:@", c) != NULL;
}

/* The Message-ID without blanks and angle brackets: [*b, *e). */
static void mid_bounds(const char *msgid, const char **b, const char **e)
{
	const char *p = msgid, *end;

	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (*p == '<')
		p++;
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' ||
			   end[-1] == '\n' || end[-1] == '\r'))
		end--;
	if (end > p && end[-1] == '>')
		end--;
	*b = p;
	*e = end;
}

/*
 * A Message-ID that could leave the inbox's path is refused: "." or
 * ".." (whole, or between slashes, in case a server decodes %2F), and
 * control characters, blanks and <> inside.
 */
static int mid_check(const char *b, const char *e)
{
	const char *p, *seg = b;

	for (p = b; p <= e; p++) {
		if (p == e || *p == '/') {
			size_t n = (size_t)(p - seg);

			if ((n == 1 && seg[0] == '.') ||
			    (n == 2 && seg[0] == '.' && seg[1] == '.'))
				return error_code(RESPIN_EUSAGE, "Message-ID "
					"'%.*s' has a '%.*s' path segment: not "
					"a Message-ID a server can be asked "
					"for", (int)(e - b), b, (int)n, seg);
			seg = p + 1;
			continue;
		}
		if ((unsigned char)*p <= ' ' || *p == 0x7f || *p == '<' ||
		    *p == '>')
			return error_code(RESPIN_EUSAGE, "Message-ID has a "
					  "blank, a control character or <> "
					  "inside: not a Message-ID");
	}
	return 0;
}

int lore_msgid_escape(struct strbuf *out, const char *msgid)
{
	static const char hex[] = "0123456789ABCDEF";
	const char *p, *end;

	mid_bounds(msgid, &p, &end);
	if (end == p)
		return error_code(RESPIN_EUSAGE, "empty Message-ID '%s'",
				  msgid);
	if (mid_check(p, end) < 0)
		return RESPIN_EUSAGE;
	for (; p < end; p++) {
		unsigned char c = *p;

		if (mid_char_ok(c)) {
			strbuf_addch(out, c);
		} else {
			strbuf_addch(out, '%');
			strbuf_addch(out, hex[c >> 4]);
			strbuf_addch(out, hex[c & 15]);
		}
	}
	return 0;
}

int lore_cache_dir(struct strbuf *out)
{
	const char *v;

	if ((v = getenv("RESPIN_CACHE")) && *v) {
		strbuf_addstr(out, v);
		return 0;
	}
	if ((v = getenv("XDG_CACHE_HOME")) && *v) {
		strbuf_addf(out, "%s/respin", v);
		return 0;
	}
	if ((v = getenv("HOME")) && *v) {
		strbuf_addf(out, "%s/.cache/respin", v);
		return 0;
	}
	return error("no cache directory: set RESPIN_CACHE or HOME");
}

static int build_url(struct strbuf *url, const char *base, const char *msgid,
		     const char *what)
{
	size_t len = strlen(base);
	int ret;

	while (len && base[len - 1] == '/')
		len--;
	if (!len)
		return error_code(RESPIN_EUSAGE, "empty public-inbox URL");
	strbuf_add(url, base, len);
	strbuf_addch(url, '/');
	ret = lore_msgid_escape(url, msgid);
	if (ret)
		return ret;
	strbuf_addf(url, "/%s", what);
	return 0;
}

/* CACHE_DIR/lore/<git blob id of url>.mbox */
static int cache_path(struct strbuf *path, const char *cache_dir,
		      const char *url)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_oid oid;
	int ret;

	git_libgit2_init();
	ret = git_odb_hash(&oid, url, strlen(url), GIT_OBJECT_BLOB);
	git_libgit2_shutdown();
	if (ret < 0)
		return error("cannot hash '%s' for the cache", url);
	git_oid_tostr(hex, sizeof(hex), &oid);
	strbuf_addf(path, "%s/lore/%s.mbox", cache_dir, hex);
	return 0;
}

/*
 * Writes data to path through a temporary file in the same directory,
 * so that a reader sees the old file or the whole new one.
 */
static int cache_write(const char *path, const struct strbuf *data)
{
	struct strbuf dir = STRBUF_INIT;
	const char *slash = strrchr(path, '/');
	int ret;

	strbuf_add(&dir, path, (size_t)(slash - path));
	ret = mkdir_parents(dir.buf);
	strbuf_release(&dir);
	if (!ret)
		ret = write_file_atomic(path, NULL, data->buf, data->len,
					0600);
	return ret;
}

/*
 * Inflates a gzip stream (one or more members, as gzip(1) writes them)
 * and appends the result to out.  Data that is not gzip at all (a proxy
 * that already decoded it) is appended as it is.
 */
static int gunzip(const char *what, const struct strbuf *in,
		  struct strbuf *out)
{
	const size_t max = mail_max_size();
	size_t start = out->len;
	z_stream z;
	int zret;

	if (in->len < 2 || (unsigned char)in->buf[0] != 0x1f ||
	    (unsigned char)in->buf[1] != 0x8b) {
		strbuf_add(out, in->buf, in->len);
		return 0;
	}
	/* the input was capped when it arrived; the output is here */
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return error("cannot inflate %s: %s", what,
			     z.msg ? z.msg : "zlib error");
	z.next_in = (unsigned char *)in->buf;
	z.avail_in = in->len;
	for (;;) {
		/* never more than max + 1 bytes: one more says "too large" */
		size_t room = max - (out->len - start) + 1;

		if (room > 65536)
			room = 65536;
		strbuf_grow(out, room);
		z.next_out = (unsigned char *)out->buf + out->len;
		z.avail_out = (uInt)room;
		zret = inflate(&z, Z_NO_FLUSH);
		strbuf_setlen(out, (char *)z.next_out - out->buf);
		if (out->len - start > max) {
			struct strbuf w = STRBUF_INIT;

			inflateEnd(&z);
			strbuf_setlen(out, start);
			strbuf_addf(&w, "the inflated answer from %s", what);
			error_too_large(w.buf, 0, max);
			strbuf_release(&w);
			return RESPIN_ERR;
		}
		if (zret == Z_STREAM_END) {
			if (!z.avail_in)
				break;
			/* another gzip member follows */
			if (inflateReset(&z) != Z_OK)
				zret = Z_DATA_ERROR;
			else
				continue;
		}
		if (zret == Z_BUF_ERROR && !z.avail_in)
			zret = Z_DATA_ERROR;	/* ended early */
		if (zret != Z_OK && zret != Z_BUF_ERROR) {
			const char *msg = z.msg ? z.msg : "truncated data";

			strbuf_setlen(out, start);
			error("cannot inflate %s: %s", what, msg);
			inflateEnd(&z);
			return RESPIN_ERR;
		}
	}
	inflateEnd(&z);
	return 0;
}

/*
 * Is this what public-inbox sends for a thread (an mbox: a "From " line
 * first) or a raw message (a "From " line, or a header)?  A 200 answer
 * that is neither, such as the HTML page of a bot check, is refused and
 * never cached.  NULL when it looks right, else what it is instead.
 */
static const char *not_mail(const char *buf, size_t len, int raw)
{
	const char *p = buf, *end = buf + len;

	if (len >= 5 && !memcmp(buf, "From ", 5))
		return NULL;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' ||
			   *p == '\n'))
		p++;
	if (p < end && *p == '<')
		return "an HTML page (a bot check or a login page?)";
	if (raw) {
		/* a header name and a colon */
		const char *q = buf;

		while (q < end && *q > ' ' && *q < 0x7f && *q != ':')
			q++;
		if (q > buf && q < end && *q == ':')
			return NULL;
	}
	return raw ? "not a mail message" :
		     "not an mbox (it does not start with a \"From \" line)";
}

/*
 * What public-inbox says when its search finds nothing (HTTP 404) is
 * cached too, as an empty entry: a search asked again answers the same
 * until --refresh.
 */
enum answer { ANSWER_THREAD, ANSWER_RAW, ANSWER_SEARCH };

/*
 * GETs (POSTs for a search) url into out through the cache.  Returns
 * 0, RESPIN_ENOTFOUND on 404 (the message names the URL), or another
 * negative code with the message set.  *status gets the HTTP status
 * (0 when the answer came from the cache or none came).
 */
static int fetch_url(const char *url, enum answer kind, const char *cache_dir,
		     unsigned flags, struct strbuf *out, long *status)
{
	struct strbuf path = STRBUF_INIT, body = STRBUF_INIT;
	const size_t start = out->len, max = mail_max_size();
	const int raw = kind == ANSWER_RAW;
	const char *bad;
	int ret;

	*status = 0;
	if (cache_dir) {
		ret = cache_path(&path, cache_dir, url);
		if (ret)
			goto out;
		/* a bad entry (from an older respin) is asked for again */
		if (!(flags & LORE_REFRESH) &&
		    !read_file_max(out, path.buf, max, NULL)) {
			if (out->len == start && kind == ANSWER_SEARCH) {
				ret = error_code(RESPIN_ENOTFOUND, "%s: "
						 "nothing found (cached)", url);
				goto out;
			}
			if (out->len > start &&
			    !not_mail(out->buf + start, out->len - start, raw))
				goto out;
		}
		strbuf_setlen(out, start);
	}

	ret = kind == ANSWER_SEARCH ? http_post(url, &body, status) :
				      http_get(url, &body, status);
	if (ret == RESPIN_ENOTFOUND && kind == ANSWER_SEARCH && cache_dir &&
	    *status == 404) {
		char *why = xstrdup(error_last());

		if (cache_write(path.buf, &body) < 0) {
			warning("%s", error_last());
			error_clear();
		}
		error_code(RESPIN_ENOTFOUND, "%s", why);
		free(why);
	}
	if (ret)
		goto out;
	/* inflated straight into out: the peak is the cap, not twice it */
	ret = gunzip(url, &body, out);
	strbuf_release(&body);
	if (ret)
		goto out;
	if (out->len == start) {
		ret = error("empty answer from %s", url);
		goto out;
	}
	bad = not_mail(out->buf + start, out->len - start, raw);
	if (bad) {
		strbuf_setlen(out, start);
		ret = error("the answer from %s is %s: not used, not cached",
			    url, bad);
		error_hint("open the URL in a browser to see what the server "
			   "wants, or point respin.lore-url at another "
			   "public-inbox server");
		/* a search that answers with a page is no search for us */
		if (kind == ANSWER_SEARCH)
			ret = LORE_ENOSEARCH;
		goto out;
	}
	/* A cache we cannot write costs time, not the answer. */
	if (cache_dir) {
		struct strbuf got = { 0 };

		/* a view of the answer, not a copy: never released */
		got.buf = out->buf + start;
		got.len = out->len - start;
		if (cache_write(path.buf, &got) < 0) {
			warning("%s", error_last());
			error_clear();
		}
	}
out:
	if (ret)
		strbuf_setlen(out, start);
	strbuf_release(&path);
	strbuf_release(&body);
	return ret;
}

static int fetch(const char *base_url, const char *msgid,
		 const char *cache_dir, unsigned flags, struct strbuf *out,
		 const char *what, const char *noun)
{
	struct strbuf url = STRBUF_INIT;
	long status;
	int ret;

	ret = build_url(&url, base_url, msgid, what);
	if (!ret)
		ret = fetch_url(url.buf, strcmp(what, "raw") ? ANSWER_THREAD :
				ANSWER_RAW, cache_dir, flags, out, &status);
	if (ret == RESPIN_ENOTFOUND) {
		const char *b, *e;

		mid_bounds(msgid, &b, &e);
		ret = error_code(RESPIN_ENOTFOUND, "no %s <%.*s> at %s", noun,
				 (int)(e - b), b, url.buf);
	}
	strbuf_release(&url);
	return ret;
}

int lore_thread_fetch(const char *base_url, const char *msgid,
		      const char *cache_dir, unsigned flags,
		      struct strbuf *mbox_out)
{
	return fetch(base_url, msgid, cache_dir, flags, mbox_out,
		     "t.mbox.gz", "thread");
}

int lore_raw_fetch(const char *base_url, const char *msgid,
		   const char *cache_dir, unsigned flags, struct strbuf *out)
{
	return fetch(base_url, msgid, cache_dir, flags, out, "raw",
		     "message");
}

/* Everything but RFC 3986's unreserved characters is percent-encoded. */
static void query_escape(struct strbuf *out, const char *q)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *q; q++) {
		unsigned char c = *q;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '.' ||
		    c == '_' || c == '~') {
			strbuf_addch(out, c);
		} else {
			strbuf_addch(out, '%');
			strbuf_addch(out, hex[c >> 4]);
			strbuf_addch(out, hex[c & 15]);
		}
	}
}

void lore_query_phrase(struct strbuf *out, const char *text, size_t max)
{
	const size_t start = out->len;
	int word = 0;

	for (; *text; text++) {
		unsigned char c = *text;

		if (c < 0x20 || c == 0x7f || c == '"' || c == ' ') {
			if (out->len > start && out->buf[out->len - 1] != ' ')
				strbuf_addch(out, ' ');
			continue;
		}
		word |= (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
			(c >= 'A' && c <= 'Z') || c >= 0x80;
		strbuf_addch(out, c);
	}
	if (out->len - start > max) {
		/* cut at a blank: a word cut short would match nothing */
		size_t n = start + max;

		while (n > start && out->buf[n] != ' ')
			n--;
		strbuf_setlen(out, n);
	}
	while (out->len > start && out->buf[out->len - 1] == ' ')
		strbuf_setlen(out, out->len - 1);
	if (!word)
		strbuf_setlen(out, start);
}

/* The length of base_url without trailing slashes. */
static size_t base_len(const char *base_url)
{
	size_t len = strlen(base_url);

	while (len && base_url[len - 1] == '/')
		len--;
	return len;
}

int lore_search_url(struct strbuf *url, const char *base_url,
		    const char *query)
{
	size_t len = base_len(base_url);

	if (!len)
		return error_code(RESPIN_EUSAGE, "empty public-inbox URL");
	if (!*query)
		return error_code(RESPIN_EUSAGE, "empty search");
	strbuf_add(url, base_url, len);
	strbuf_addstr(url, "/?q=");
	query_escape(url, query);
	strbuf_addstr(url, "&x=m&t=1");
	return 0;
}

/* Answers that say "no search here", not "the server is in trouble". */
static int no_search_status(long status)
{
	return status == 501 || status == 405 || status == 400 ||
	       status == 403 || status == 410;
}

int lore_search_fetch(const char *base_url, const char *query,
		      const char *cache_dir, unsigned flags,
		      struct strbuf *mbox_out)
{
	struct strbuf url = STRBUF_INIT;
	long status = 0;
	int ret;

	ret = lore_search_url(&url, base_url, query);
	if (!ret)
		ret = fetch_url(url.buf, ANSWER_SEARCH, cache_dir, flags,
				mbox_out, &status);
	if (ret == RESPIN_ENOTFOUND && status == 410)
		ret = RESPIN_ERR;
	if (ret == RESPIN_ERR && no_search_status(status)) {
		error_clear();
		ret = error_code(LORE_ENOSEARCH, "%.*s has no search (HTTP "
				 "%ld)", (int)base_len(base_url), base_url,
				 status);
	} else if (ret == LORE_ENOSEARCH) {
		/* an answer that is no mbox: fetch_url said what it is */
		char *why = xstrdup(error_last());

		error_clear();
		ret = error_code(LORE_ENOSEARCH, "%.*s has no search (%s)",
				 (int)base_len(base_url), base_url, why);
		free(why);
	}
	strbuf_release(&url);
	return ret;
}
