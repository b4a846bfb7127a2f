// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Subject tags: "Re: [RFC PATCH net-next v4 02/17] net: foo".  The
 * input up to its first NUL is one decoded subject line.
 */
#include "patches/subject.h"
#include "tests/fuzz/fuzz.h"
#include "tools/lib/strbuf.h"

#include <stdlib.h>
#include <string.h>

FUZZ_TARGET(subject)
{
	char *s = malloc(size + 1);
	struct subject sub;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	subject_init(&sub);
	subject_parse(&sub, s);
	if (!sub.title || strlen(sub.title) > size)
		abort();
	/*
	 * The title parsed again (a reply's subject is parsed once more
	 * after "Re: " is gone): the struct is reused, its old strings
	 * freed.  (Range checks on the numbers are not asserted here:
	 * a version beyond int is the size caps' business.)
	 */
	free(s);
	s = xstrdup(sub.title);
	subject_parse(&sub, s);
	if (!sub.title)
		abort();
	subject_release(&sub);
	free(s);
	return 0;
}
