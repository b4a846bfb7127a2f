// SPDX-License-Identifier: GPL-2.0-or-later
#include "http.h"
#include "error.h"
#include "strbuf.h"

/* no type-checking macros: the calls go through pointers */
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
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
	X(curl_global_init) \

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
#define curl_global_init cl.curl_global_init

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

static int http_transient(long status)
{
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
	SET(CURLOPT_FOLLOWLOCATION, 1L);
	SET(CURLOPT_MAXREDIRS, 10L);
	SET(CURLOPT_USERAGENT, HTTP_USER_AGENT);
	SET(CURLOPT_ACCEPT_ENCODING, "");
	SET(CURLOPT_CONNECTTIMEOUT_MS, config.connect_timeout_ms);
	SET(CURLOPT_TIMEOUT_MS, config.timeout_ms);
	SET(CURLOPT_LOW_SPEED_LIMIT, config.low_speed_limit);
	SET(CURLOPT_LOW_SPEED_TIME, config.low_speed_time);
	SET(CURLOPT_WRITEFUNCTION, sink_write);
	SET(CURLOPT_WRITEDATA, sink);
#undef SET
	if (rc != CURLE_OK)
		return error("cannot set up a request for %s: %s", url,
			     curl_easy_strerror(rc));
	return 0;
}

int http_get(const char *url, struct strbuf *out, long *status)
{
	char errbuf[CURL_ERROR_SIZE], tries[48] = "";
	struct strbuf body = STRBUF_INIT;
	struct sink sink = { &body, config.max_size, 0 };
	CURL *curl;
	CURLcode rc = CURLE_OK;
	long code = 0, wait = config.backoff_ms;
	int try, ret;

	if (status)
		*status = 0;
	if (!curl_ready) {
		if (curl_load() < 0)
			return RESPIN_ERR;
		if (curl_global_init(CURL_GLOBAL_DEFAULT))
			return error("cannot initialise libcurl");
		curl_ready = 1;
	}
	curl = curl_easy_init();
	if (!curl)
		return error("cannot create a libcurl handle for %s", url);
	ret = setup(curl, url, &sink, errbuf);
	if (ret)
		goto out;

	for (try = 1; ; try++) {
		strbuf_reset(&body);
		errbuf[0] = '\0';
		code = 0;
		rc = curl_easy_perform(curl);
		if (rc == CURLE_OK)
			curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
		if (status)
			*status = code;
		if (rc == CURLE_OK && code >= 200 && code < 300) {
			strbuf_add(out, body.buf, body.len);
			ret = 0;
			goto out;
		}
		if (rc == CURLE_OK && (code == 404 || code == 410)) {
			ret = error_code(RESPIN_ENOTFOUND, "%s: HTTP %ld",
					 url, code);
			goto out;
		}
		if (try >= config.tries ||
		    (rc == CURLE_OK ? !http_transient(code) :
				      !curl_transient(rc)))
			break;
		sleep_ms(wait);
		wait *= 2;
	}

	if (try > 1)
		snprintf(tries, sizeof(tries), " (gave up after %d tries)", try);
	if (sink.too_large)
		ret = error("cannot fetch %s: the answer is larger than %zu bytes",
			    url, sink.max);
	else if (rc == CURLE_OK)
		ret = error("cannot fetch %s: HTTP %ld%s", url, code, tries);
	else
		ret = error("cannot fetch %s: %s%s", url,
			    errbuf[0] ? errbuf : curl_easy_strerror(rc), tries);
out:
	curl_easy_cleanup(curl);
	strbuf_release(&body);
	return ret;
}
