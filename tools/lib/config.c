// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"
#include "error.h"
#include "http.h"
#include "limits.h"
#include "repo.h"
#include "strbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The hosts respin.lore.allowRedirectHost lists: kept for http.c. */
static char **redirect_hosts;
static size_t nr_redirect_hosts, alloc_redirect_hosts;

static int add_host(const git_config_entry *e, void *data)
{
	(void)data;
	if (!e->value || !*e->value)
		return 0;
	ALLOC_GROW(redirect_hosts, nr_redirect_hosts, alloc_redirect_hosts);
	redirect_hosts[nr_redirect_hosts++] = xstrdup(e->value);
	return 0;
}

static int get_string(git_config *cfg, const char *key, git_buf *buf)
{
	int r = cfg ? git_config_get_string_buf(buf, cfg, key) : -1;

	git_error_clear();
	return r;
}

int config_mail_limits(git_repository *repo)
{
	struct http_config http = *http_config_get();
	git_config *cfg = NULL;
	git_buf buf = GIT_BUF_INIT;
	size_t max = MAIL_MAX_SIZE_DEFAULT;
	int ret = 0;

	if (repo_config_snapshot(repo, &cfg) < 0) {
		git_error_clear();
		cfg = NULL;
	}
	if (!get_string(cfg, MAIL_MAX_SIZE_KEY, &buf) &&
	    (size_parse(buf.ptr, &max) < 0 || !max)) {
		ret = error("bad %s '%s' in git config: give a size such as "
			    "256m (k, m and g as git reads them)",
			    MAIL_MAX_SIZE_KEY, buf.ptr);
		goto out;
	}
	git_buf_dispose(&buf);
	if (!get_string(cfg, HTTP_TIMEOUT_KEY, &buf)) {
		char *end;
		double s = strtod(buf.ptr, &end);

		if (!*buf.ptr || *end || !isfinite(s) || s < 0 ||
		    s > 7 * 86400) {
			ret = error("bad %s '%s' in git config: give seconds, "
				    "such as 30 (0: no bound)",
				    HTTP_TIMEOUT_KEY, buf.ptr);
			goto out;
		}
		http.deadline_ms = (long)(s * 1000 + 0.5);
		if (s > 0 && !http.deadline_ms)
			http.deadline_ms = 1;
	}
	git_buf_dispose(&buf);
	while (nr_redirect_hosts)
		free(redirect_hosts[--nr_redirect_hosts]);
	if (cfg)
		git_config_get_multivar_foreach(cfg, HTTP_REDIRECT_HOSTS_KEY,
						NULL, add_host, NULL);
	git_error_clear();
	http.redirect_hosts = (const char *const *)redirect_hosts;
	http.nr_redirect_hosts = nr_redirect_hosts;
	mail_max_size_set(max);
	http_configure(&http);
out:
	git_buf_dispose(&buf);
	git_config_free(cfg);
	return ret;
}
