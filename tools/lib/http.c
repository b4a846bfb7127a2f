// SPDX-License-Identifier: GPL-2.0-or-later
#include "http.h"
#include "error.h"
#include "limits.h"
#include "strbuf.h"

/* no type-checking macros: the calls go through pointers */
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "dl.h"

/* libcurl is loaded on first use (see dl.h) through these pointers. */
#undef curl_easy_setopt
#undef curl_easy_getinfo
#define CURL_FUNCS(X) \
	X(curl_easy_cleanup) \
	X(curl_easy_getinfo) \
	X(curl_easy_init) \
	X(curl_easy_perform) \
	X(curl_easy_setopt) \
	X(curl_easy_strerror) \
	X(curl_free) \
	X(curl_global_init) \
	X(curl_url) \
	X(curl_url_cleanup) \
	X(curl_url_get) \
	X(curl_url_set) \

#define CURL_PTR(f) __typeof__(&f) f;
static struct {
	CURL_FUNCS(CURL_PTR)
} cl;
#undef CURL_PTR

static int curl_load(void)
{
#define CURL_NAME(f) #f,
#define CURL_ADDR(f) (void **)&cl.f,
	static const char *const names[] = { CURL_FUNCS(CURL_NAME) };
	void **const ptrs[] = { CURL_FUNCS(CURL_ADDR) };
#undef CURL_NAME
#undef CURL_ADDR

	return dl_load("libcurl.so.4", "libcurl4", names, ptrs,
		       sizeof(names) / sizeof(*names));
}

#define curl_easy_cleanup cl.curl_easy_cleanup
#define curl_easy_getinfo cl.curl_easy_getinfo
#define curl_easy_init cl.curl_easy_init
#define curl_easy_perform cl.curl_easy_perform
#define curl_easy_setopt cl.curl_easy_setopt
#define curl_easy_strerror cl.curl_easy_strerror
#define curl_free cl.curl_free
#define curl_global_init cl.curl_global_init
#define curl_url cl.curl_url
#define curl_url_cleanup cl.curl_url_cleanup
#define curl_url_get cl.curl_url_get
#define curl_url_set cl.curl_url_set

#define HTTP_USER_AGENT "respin/0.1"

static struct http_config config = HTTP_CONFIG_INIT;
static int curl_ready;

void http_configure(const struct http_config *cfg)
{
	config = *cfg;
	if (config.tries < 1)
		config.tries = 1;
}

const struct http_config *http_config_get(void)
{
	return &config;
}

struct sink {
	struct strbuf *buf;
	size_t max;
	int too_large;
};

static size_t sink_write(char *data, size_t size, size_t nmemb, void *p)
{
	struct sink *s = p;
	size_t n = size * nmemb;

	if (s->buf->len + n > s->max) {
		s->too_large = 1;
		return 0;	/* makes curl fail with CURLE_WRITE_ERROR */
	}
	strbuf_add(s->buf, data, n);
	return n;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Failures that may go away when asked again. */
static int curl_transient(CURLcode rc)
{
	switch (rc) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return 1;
	default:
		return 0;
	}
}

/* 501 and 505: the server cannot do it, however often it is asked. */
static int http_transient(long status)
{
	if (status == 501 || status == 505)
		return 0;
	return status >= 500 || status == 429 || status == 408;
}

static int setup(CURL *curl, const char *url, struct sink *sink, char *errbuf)
{
	CURLcode rc = CURLE_OK;

#define SET(opt, val) do { \
		if (rc == CURLE_OK) \
			rc = curl_easy_setopt(curl, opt, val); \
	} while (0)
	SET(CURLOPT_URL, url);
	SET(CURLOPT_ERRORBUFFER, errbuf);
	SET(CURLOPT_NOSIGNAL, 1L);
	SET(CURLOPT_PROTOCOLS_STR, "http,https");
	SET(CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	/* redirects are followed by hand, after a look at the host */
	SET(CURLOPT_FOLLOWLOCATION, 0L);
	SET(CURLOPT_USERAGENT, HTTP_USER_AGENT);
	SET(CURLOPT_ACCEPT_ENCODING, "");
	SET(CURLOPT_LOW_SPEED_LIMIT, config.low_speed_limit);
	SET(CURLOPT_LOW_SPEED_TIME, config.low_speed_time);
	/* an answer that says it is too large stops before its body */
	SET(CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)sink->max);
	SET(CURLOPT_WRITEFUNCTION, sink_write);
	SET(CURLOPT_WRITEDATA, sink);
#undef SET
	if (rc != CURLE_OK)
		return error("cannot set up a request for %s: %s", url,
			     curl_easy_strerror(rc));
	return 0;
}

/* Milliseconds on a clock that never jumps. */
static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct origin {
	char *scheme, *host, *port;
};

static void origin_release(struct origin *o)
{
	curl_free(o->scheme);
	curl_free(o->host);
	curl_free(o->port);
	memset(o, 0, sizeof(*o));
}

/* scheme, host and port (the scheme's default when none is given). */
static int origin_of(const char *url, struct origin *o)
{
	CURLU *u = curl_url();
	int r = -1;

	memset(o, 0, sizeof(*o));
	if (!u)
		return -1;
	if (!curl_url_set(u, CURLUPART_URL, url, 0) &&
	    !curl_url_get(u, CURLUPART_SCHEME, &o->scheme, 0) &&
	    !curl_url_get(u, CURLUPART_HOST, &o->host, 0) &&
	    !curl_url_get(u, CURLUPART_PORT, &o->port, CURLU_DEFAULT_PORT))
		r = 0;
	curl_url_cleanup(u);
	if (r)
		origin_release(o);
	return r;
}

/* Is "HOST" or "HOST:PORT" (or "*") in the configured list? */
static int host_listed(const struct origin *to)
{
	size_t i, n = strlen(to->host);

	for (i = 0; i < config.nr_redirect_hosts; i++) {
		const char *h = config.redirect_hosts[i];

		if (!strcmp(h, "*"))
			return 1;
		if (strncasecmp(h, to->host, n))
			continue;
		if (!h[n] || (h[n] == ':' && !strcmp(h + n + 1, to->port)))
			return 1;
	}
	return 0;
}

/*
 * May a redirect from one URL lead to another?  Within one host and
 * port (never from https down to http), from http to https on the
 * same host, or to a host the configuration lists.
 */
static int redirect_allowed(const char *from, const char *to)
{
	struct origin a, b;
	int ok = 0;

	if (origin_of(from, &a))
		return 0;
	if (origin_of(to, &b)) {
		origin_release(&a);
		return 0;
	}
	if (host_listed(&b))
		ok = 1;
	else if (strcasecmp(a.host, b.host))
		ok = 0;
	else if (!strcmp(a.scheme, b.scheme))
		ok = !strcmp(a.port, b.port);
	else
		ok = !strcmp(a.scheme, "http") && !strcmp(b.scheme, "https") &&
		     !strcmp(a.port, "80") && !strcmp(b.port, "443");
	origin_release(&a);
	origin_release(&b);
	return ok;
}

#define HTTP_MAX_REDIRECTS 10

/* libcurl loaded and set up, once. */
static int curl_start(void)
{
	int r;

	if (curl_ready)
		return 0;
	r = curl_load();
	if (r < 0)
		return r;
	if (curl_global_init(CURL_GLOBAL_DEFAULT))
		return error("cannot initialise libcurl");
	curl_ready = 1;
	return 0;
}

/* The try's timeouts within what is left; 1 when nothing is left. */
static int set_timeouts(CURL *curl, long long deadline)
{
	long timeout = config.timeout_ms;
	long connect = config.connect_timeout_ms;

	if (deadline) {
		long long left = deadline - now_ms();

		if (left <= 0)
			return 1;
		if (!timeout || timeout > left)
			timeout = (long)left;
		if (!connect || connect > left)
			connect = (long)left;
	}
	curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, connect);
	return 0;
}

/*
 * A 3xx answer to where: followed, when allowed, by pointing curl (and
 * where) at its Location; an error when it may not be.
 */
static int follow_redirect(CURL *curl, struct strbuf *where, long code,
			   int post, int *redirects, const char *url)
{
	char *loc = NULL;

	curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &loc);
	if (!loc)
		return error("cannot fetch %s: HTTP %ld without a Location",
			     where->buf, code);
	if (!redirect_allowed(where->buf, loc)) {
		int r = error("cannot fetch %s: it redirects to %s, another "
			      "host: not followed", where->buf, loc);

		error_hint("to follow redirects there, 'git config --add %s "
			   "HOST[:PORT]' (or '*' for any host)",
			   HTTP_REDIRECT_HOSTS_KEY);
		return r;
	}
	if (++*redirects > HTTP_MAX_REDIRECTS)
		return error("cannot fetch %s: more than %d redirects", url,
			     HTTP_MAX_REDIRECTS);
	strbuf_reset(where);
	strbuf_addstr(where, loc);
	curl_easy_setopt(curl, CURLOPT_URL, where->buf);
	/* as browsers do: only 307 and 308 keep the POST */
	if (post && code != 307 && code != 308)
		curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
	return 0;
}

/* What the tries came to, as the error of a fetch that failed. */
struct outcome {
	CURLcode rc;
	long code;
	int tries, asked, out_of_time;
	const char *errbuf;
};

static int fetch_failed(const struct outcome *oc, const struct sink *sink,
			const char *where)
{
	char tries[64] = "";
	int r;

	if (oc->out_of_time) {
		r = error("cannot fetch %s: gave up after %ld.%01ld s (%s; %d "
			  "%s)", where, config.deadline_ms / 1000,
			  config.deadline_ms % 1000 / 100, HTTP_TIMEOUT_KEY,
			  oc->asked, oc->asked == 1 ? "try" : "tries");
		error_hint("a slow server or link needs more: 'git config "
			   "%s SECONDS'", HTTP_TIMEOUT_KEY);
		return r;
	}
	if (oc->tries > 1)
		snprintf(tries, sizeof(tries), " (gave up after %d tries)",
			 oc->tries);
	if (sink->too_large) {
		struct strbuf what = STRBUF_INIT;

		strbuf_addf(&what, "the answer from %s", where);
		r = error_too_large(what.buf, 0, sink->max);
		strbuf_release(&what);
		return r;
	}
	if (oc->rc == CURLE_OK)
		return error("cannot fetch %s: HTTP %ld%s", where, oc->code,
			     tries);
	return error("cannot fetch %s: %s%s", where, oc->errbuf[0] ?
		     oc->errbuf : curl_easy_strerror(oc->rc), tries);
}

static int request(const char *url, int post, struct strbuf *out,
		   long *status)
{
	char errbuf[CURL_ERROR_SIZE];
	struct strbuf body = STRBUF_INIT, where = STRBUF_INIT;
	struct sink sink = { &body, config.max_size ? config.max_size :
			     mail_max_size(), 0 };
	struct outcome oc = { CURLE_OK, 0, 0, 0, 0, errbuf };
	CURL *curl;
	long wait = config.backoff_ms;
	long long deadline = config.deadline_ms > 0 ?
			     now_ms() + config.deadline_ms : 0;
	int ret, redirects = 0;

	if (status)
		*status = 0;
	ret = curl_start();
	if (ret < 0)
		return ret;
	curl = curl_easy_init();
	if (!curl)
		return error("cannot create a libcurl handle for %s", url);
	ret = setup(curl, url, &sink, errbuf);
	if (ret)
		goto out;
	if (post) {
		/* an empty body: what public-inbox wants for an mbox */
		curl_easy_setopt(curl, CURLOPT_POSTFIELDS, "");
		curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, 0L);
	}
	strbuf_addstr(&where, url);

	for (oc.tries = 1; ; oc.tries++) {
		if (set_timeouts(curl, deadline)) {
			oc.out_of_time = 1;
			break;
		}
		strbuf_reset(&body);
		errbuf[0] = '\0';
		oc.code = 0;
		oc.rc = curl_easy_perform(curl);
		oc.asked++;
		if (oc.rc == CURLE_FILESIZE_EXCEEDED)
			sink.too_large = 1;
		if (oc.rc == CURLE_OK)
			curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE,
					  &oc.code);
		if (status)
			*status = oc.code;
		if (oc.rc == CURLE_OK && oc.code >= 300 && oc.code < 400 &&
		    oc.code != 304) {
			ret = follow_redirect(curl, &where, oc.code, post,
					      &redirects, url);
			if (ret < 0)
				goto out;
			oc.tries--;	/* a redirect is no try */
			continue;
		}
		if (oc.rc == CURLE_OK && oc.code >= 200 && oc.code < 300) {
			strbuf_add(out, body.buf, body.len);
			ret = 0;
			goto out;
		}
		if (oc.rc == CURLE_OK && (oc.code == 404 || oc.code == 410)) {
			ret = error_code(RESPIN_ENOTFOUND, "%s: HTTP %ld",
					 where.buf, oc.code);
			goto out;
		}
		if (deadline && oc.rc == CURLE_OPERATION_TIMEDOUT &&
		    now_ms() >= deadline) {
			oc.out_of_time = 1;
			break;
		}
		if (oc.tries >= config.tries ||
		    (oc.rc == CURLE_OK ? !http_transient(oc.code) :
					 !curl_transient(oc.rc)))
			break;
		if (deadline && now_ms() + wait >= deadline) {
			sleep_ms((long)(deadline - now_ms()));
			oc.out_of_time = 1;
			break;
		}
		sleep_ms(wait);
		wait *= 2;
	}
	ret = fetch_failed(&oc, &sink, where.buf);
out:
	curl_easy_cleanup(curl);
	strbuf_release(&body);
	strbuf_release(&where);
	return ret;
}

int http_get(const char *url, struct strbuf *out, long *status)
{
	return request(url, 0, out, status);
}

int http_post(const char *url, struct strbuf *out, long *status)
{
	return request(url, 1, out, status);
}
