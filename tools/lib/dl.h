/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_DL_H
#define RESPIN_DL_H

#include <stddef.h>

/*
 * Loading a shared library on first use.  libcurl and libnotmuch pull
 * in some thirty more libraries (Kerberos, LDAP, Xapian, C++...);
 * linking them would make every respin command pay for resolving
 * their symbols at start-up.  Their adapters load them when a command
 * first fetches from lore or asks notmuch.
 *
 * names[i] is looked up into *ptrs[i]; package names the Debian
 * package to install when the library is missing.
 */
int dl_load(const char *soname, const char *package, const char *const *names,
	    void **const *ptrs, size_t n);

#endif
