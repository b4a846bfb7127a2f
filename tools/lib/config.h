/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_CONFIG_H
#define RESPIN_CONFIG_H

#include <git2.h>

/*
 * The bounds on reading mail, from git config (repo may be NULL: the
 * user's global config then):
 *
 *	respin.maxMailSize		largest mail file, standard input,
 *					maildir message, HTTP answer or
 *					inflated answer (default 256m; k, m
 *					and g suffixes as git)
 *	respin.lore.timeout		seconds one lore request may take in
 *					all, retries and redirects included
 *					(default 30; 0: no bound)
 *	respin.lore.allowRedirectHost	a host ("HOST" or "HOST:PORT", "*"
 *					for any) a lore redirect may lead to
 *					besides respin.lore-url's own; may be
 *					given more than once
 *
 * config_mail_limits() reads them and sets mail_max_size() and the
 * HTTP defaults (http_configure()).  A value it cannot read is an
 * error naming the key and the value: RESPIN_ERR.
 */
int config_mail_limits(git_repository *repo);

#endif
