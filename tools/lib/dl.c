// SPDX-License-Identifier: GPL-2.0-or-later
#include "dl.h"
#include "error.h"

#include <dlfcn.h>

int dl_load(const char *soname, const char *package, const char *const *names,
	    void **const *ptrs, size_t n)
{
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	size_t i;

	if (!h) {
		error("cannot load %s: %s", soname, dlerror());
		error_hint("install it: apt-get install %s", package);
		return RESPIN_ERR;
	}
	for (i = 0; i < n; i++) {
		*ptrs[i] = dlsym(h, names[i]);
		if (!*ptrs[i])
			return error("%s has no %s: a version too old for "
				     "respin", soname, names[i]);
	}
	return 0;
}
