/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_HTTP_H
#define RESPIN_HTTP_H

#include <stddef.h>

struct strbuf;

/*
 * A small HTTP(S) GET on top of libcurl.  The curl handle never leaves
 * http.c.  Every request has a connect timeout, a low-speed limit (give
 * up when fewer than low_speed_limit bytes a second arrive for
 * low_speed_time seconds), a timeout for each try and a deadline for the
 * whole request (every try, back-off and redirect: respin.lore.timeout),
 * and sends "User-Agent: respin/0.1".  A body larger than max_size
 * (default: mail_max_size(), respin.maxMailSize) is refused as it
 * arrives.
 *
 * Redirects are followed (up to 10) within the host and port asked, from
 * http to https on the same host, and to the hosts in redirect_hosts
 * ("HOST" or "HOST:PORT", or "*" for any: respin.lore.allowRedirectHost);
 * a redirect anywhere else fails naming where it led.
 *
 * Transient failures (connection errors, timeouts, HTTP 5xx but 501
 * and 505, 408 and 429) are retried up to tries times in all, waiting
 * backoff_ms, then twice that, and so on, between tries.  HTTP 404 and
 * other 4xx are never retried.
 */
struct http_config {
	long connect_timeout_ms;
	long timeout_ms;		/* whole request; 0 = none */
	long low_speed_limit;		/* bytes per second */
	long low_speed_time;		/* seconds */
	int tries;			/* at least 1 */
	long backoff_ms;		/* wait before the second try */
	size_t max_size;		/* largest body; 0 = mail_max_size() */
	long deadline_ms;		/* whole request; 0 = none */
	const char *const *redirect_hosts;	/* borrowed, not copied */
	size_t nr_redirect_hosts;
};

#define HTTP_TIMEOUT_KEY	"respin.lore.timeout"
#define HTTP_TIMEOUT_DEFAULT_MS	30000
#define HTTP_REDIRECT_HOSTS_KEY	"respin.lore.allowRedirectHost"

#define HTTP_CONFIG_INIT { \
	.connect_timeout_ms = 10000, \
	.timeout_ms = 300000, \
	.low_speed_limit = 100, \
	.low_speed_time = 30, \
	.tries = 3, \
	.backoff_ms = 500, \
	.max_size = 0, \
	.deadline_ms = HTTP_TIMEOUT_DEFAULT_MS, \
}

/*
 * Sets the process-wide defaults that http_get() uses (config.h reads
 * them from git config; test drivers from options).  The structure is
 * copied; the strings redirect_hosts points to must outlive it.
 */
void http_configure(const struct http_config *cfg);
/* The current defaults (borrowed). */
const struct http_config *http_config_get(void);

/*
 * GETs url and appends the body to out.  Returns 0 on a 2xx answer,
 * RESPIN_ENOTFOUND on 404 or 410, RESPIN_ERR on anything else (the
 * message names the URL and what went wrong).  *status, when not NULL,
 * receives the last HTTP status (0 when there was no answer).  Nothing
 * is appended to out unless 0 is returned.
 */
int http_get(const char *url, struct strbuf *out, long *status);
/*
 * The same as a POST with an empty body (public-inbox answers a search
 * with an mbox only to a POST).  A redirect other than 307 or 308 is
 * followed with a GET.  HTTP 501 and 505 are not retried (by either).
 */
int http_post(const char *url, struct strbuf *out, long *status);

#endif
