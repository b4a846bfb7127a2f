// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * strbuf_add_sq: whatever a string holds, sh reads the quoted form back
 * as that one word (job scripts carry paths and commands this way).
 */
#include "tools/lib/run.h"
#include "tools/lib/strbuf.h"
#include "tests/unit/tap.h"

static const char *const words[] = {
	"plain",
	"",
	"it's",
	"''",
	"$(touch /tmp/respin-t-quote-pwned)",
	"`id`",
	"a b\tc\nd",
	"back\\slash\\",
	"\"double\" 'single'",
	"; rm -rf / #",
	"$HOME ${PATH} $1 $@",
	"*?[a-z]",
};

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		struct strbuf cmd = STRBUF_INIT;
		const char *argv[] = { "sh", "-c", NULL, NULL };
		struct run_opts o = { 0 };
		struct run_result res;

		/* one word: printf gets exactly one argument back */
		strbuf_addstr(&cmd, "set -- ");
		strbuf_add_sq(&cmd, words[i]);
		strbuf_addstr(&cmd, "; printf '%s|%d' \"$1\" $#");
		argv[2] = cmd.buf;
		o.argv = argv;
		o.timeout = 10;
		run_result_init(&res);
		if (run_program(&o, &res) < 0) {
			ok(0, "word %zu: sh ran", i);
		} else {
			struct strbuf want = STRBUF_INIT;

			strbuf_addf(&want, "%s|1", words[i]);
			is_str(res.output.buf, want.buf, "word %zu read back as "
			       "one word", i);
			strbuf_release(&want);
		}
		run_result_release(&res);
		strbuf_release(&cmd);
	}
	return done_testing();
}
