// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a reply gives: trailers on lines of their own, and not those of
 * a commit or a patch the reply pastes (indented, after a "commit
 * <sha>" line, from a "From <sha>" line or a scissors line, the
 * trailers right above a pasted diff), nor those inside a diff, nor a
 * bot's boilerplate tags (real kernel test robot reports from
 * tests/data, faithful syzbot and smatch ones).
 */
#include "patches/mail.h"
#include "patches/mbox.h"
#include "patches/reply.h"
#include "tests/unit/tap.h"
#include "tests/unit/testdata.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <stdlib.h>

/* The trailers given in body, one "Key: value\n" a line. */
static void given(const char *body, struct strbuf *out)
{
	struct trailer_list tl;
	size_t i;

	trailer_list_init(&tl);
	patchmail_reply_trailers(&tl, body, strlen(body));
	strbuf_reset(out);
	for (i = 0; i < tl.nr; i++)
		strbuf_addf(out, "%s: %s\n", tl.items[i].key, tl.items[i].value);
	trailer_list_release(&tl);
}

static void test_plain(struct strbuf *got)
{
	given("On Mon, X wrote:\n"
	      "> Signed-off-by: Quoted Person <q@x>\n"
	      ">> Reviewed-by: Deep Quote <d@x>\n"
	      "> \n"
	      "Looks good.\n\n"
	      "Reviewed-by: Real Reviewer <r@x>\n"
	      "  Acked-by: Indented Acker <i@x>\n"
	      "tested-by: Lower Case <l@x>\n"
	      "Reviewed-by: nobody in particular\n"
	      "Fixes: 0123456789abcdef (\"x: y\")\n"
	      "Fixes: not-a-sha\n"
	      "Link: https://lore.kernel.org/r/x@y\n"
	      "Note: not a trailer <n@x>\n"
	      "-- \n"
	      "Reviewed-by: In Signature <s@x>\n", got);
	is_str(got->buf, "Reviewed-by: Real Reviewer <r@x>\n"
	       "Tested-by: Lower Case <l@x>\n"
	       "Fixes: 0123456789abcdef (\"x: y\")\n"
	       "Link: https://lore.kernel.org/r/x@y\n",
	       "at the start of a line, unquoted, not indented, before the "
	       "signature");
}

static void test_pasted_commits(struct strbuf *got)
{
	given("> Fix it.\n\n"
	      "This looks like what I did in:\n\n"
	      "commit 0123456789abcdef0123456789abcdef01234567\n"
	      "Author: Other Dev <other@example.org>\n"
	      "Date:   Mon Jan 1 00:00:00 2024 +0000\n\n"
	      "    mm: the other fix\n\n"
	      "    Signed-off-by: Other Dev <other@example.org>\n"
	      "    Reviewed-by: Someone Else <else@example.org>\n\n"
	      "Reviewed-by: Real Reviewer <real@example.org>\n", got);
	is_str(got->buf, "Reviewed-by: Real Reviewer <real@example.org>\n",
	       "a commit pasted from git log (indented)");

	given("This went in as\n\n"
	      "    powerpc/mm/altmap: Fix altmap boundary check\n"
	      "    \n"
	      "    altmap->free includes the entire free space.\n"
	      "    \n"
	      "    Signed-off-by: Aneesh <aneesh@example.org>\n\n"
	      "Thanks.\n", got);
	is_str(got->buf, "", "a commit pasted indented without its header");

	given("Anyway, if it goes via drm-misc, feel free to have my:\n\n"
	      "    Acked-by: Miguel Ojeda <ojeda@kernel.org>\n\n"
	      "Boot and LTP smoke pass.\n\n"
	      "  Tested-by: Linux Kernel Functional Testing <lkft@linaro.org>\n"
	      "  Tested-by: Anders Roxell <anders.roxell@linaro.org>\n"
	      "> quoted\n", got);
	is_str(got->buf, "Acked-by: Miguel Ojeda <ojeda@kernel.org>\n"
	       "Tested-by: Linux Kernel Functional Testing <lkft@linaro.org>\n"
	       "Tested-by: Anders Roxell <anders.roxell@linaro.org>\n",
	       "an indented paragraph of tags alone under the reply's own "
	       "words is given");

	given("It is fixed by\n\n"
	      "commit 0123456789ab (\"mm: the other fix\")\n"
	      "Author: Other Dev <other@example.org>\n"
	      "Date: Mon Jan 1 00:00:00 2024 +0000\n\n"
	      "mm: the other fix\n\n"
	      "Do it differently.\n\n"
	      "Signed-off-by: Other Dev <other@example.org>\n"
	      "Cc: stable@vger.kernel.org\n\n"
	      "so please rebase on it.\n\n"
	      "Acked-by: Real Acker <acker@example.org>\n", got);
	is_str(got->buf, "Acked-by: Real Acker <acker@example.org>\n",
	       "a commit after a \"commit <sha>\" line, its message not "
	       "indented: up to its trailer block");

	given("The fix was in commit 0123456789ab (\"mm: x\").\n"
	      "commit 0123456789ab is in mm-unstable\n\n"
	      "Reviewed-by: After Prose <prose@example.org>\n", got);
	is_str(got->buf, "Reviewed-by: After Prose <prose@example.org>\n",
	       "\"commit <sha>\" in prose is not a pasted commit");
}

static const char pasted_patch[] =
	"Something like this, untested:\n\n"
	" From 6a6162e8af62a4b3f7b9d823fdfae86de3f34a9d Mon Sep 17 00:00:00 2001\n"
	"From: Fixer <fixer@example.org>\n"
	"Date: Sat, 14 Jan 2023 16:47:12 +0100\n"
	"Subject: [PATCH] fixup: mm: x\n\n"
	"Do it right.\n\n"
	"Reported-by: kernel test robot <lkp@intel.com>\n"
	"Signed-off-by: Fixer <fixer@example.org>\n"
	"---\n"
	" mm/f.c | 2 +-\n"
	" 1 file changed, 1 insertion(+), 1 deletion(-)\n\n"
	"diff --git a/mm/f.c b/mm/f.c\n"
	"index 1111111..2222222 100644\n"
	"--- a/mm/f.c\n"
	"+++ b/mm/f.c\n"
	"@@ -1,4 +1,4 @@\n"
	" a\n"
	"-b\n"
	"+c\n"
	"\n"
	" d\n"
	"-- \n"
	"2.39.0\n\n"
	"With that folded in:\n\n"
	"Reviewed-by: Fixer <fixer@example.org>\n";

static void test_pasted_patches(struct strbuf *got)
{
	given(pasted_patch, got);
	is_str(got->buf, "Reviewed-by: Fixer <fixer@example.org>\n",
	       "a pasted format-patch mail: its tags are not given, the "
	       "one after its diff is");

	given("> diff --git a/x b/x\n"
	      "> +Signed-off-by: In A Quoted Diff <q@example.org>\n\n"
	      "---8<---\n"
	      "Subject: [PATCH] mips/smp: guard\n\n"
	      "Text.\n\n"
	      "Signed-off-by: Josh <j@example.org>\n"
	      "---\n"
	      " arch/x | 2 ++\n"
	      "diff --git a/arch/x b/arch/x\n"
	      "--- a/arch/x\n"
	      "+++ b/arch/x\n"
	      "@@ -1,2 +1,4 @@\n"
	      " a\n"
	      "+#ifdef X\n"
	      " b\n"
	      "+#endif\n", got);
	is_str(got->buf, "", "a patch after a scissors line");

	given("Below is what I believe to be the right patch.\n\n"
	      "[PATCH 05/12] powerpc: add it\n\n"
	      "Add it.\n\n"
	      "Signed-off-by: Hugh <h@example.org>\n"
	      "---\n"
	      " arch/p.c | 1 +\n"
	      " 1 file changed, 1 insertion(+)\n\n"
	      "diff --git a/arch/p.c b/arch/p.c\n"
	      "--- a/arch/p.c\n"
	      "+++ b/arch/p.c\n"
	      "@@ -1 +1,2 @@\n"
	      " a\n"
	      "+b\n", got);
	is_str(got->buf, "", "the tags right above a pasted patch's --- and "
	       "diff");

	given("Please fold this in:\n\nSigned-off-by: Fixer <f@x>\n"
	      "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n\n"
	      "Reviewed-by: After The Diff <d@x>\n", got);
	is_str(got->buf, "Reviewed-by: After The Diff <d@x>\n",
	       "the tags right above a bare diff are its own; the diff ends "
	       "where its hunk counts say");

	given("There are stray references, see below.\n\n"
	      "With that:\nAcked-by: Valentin <v@example.org>\n\n"
	      "---\n"
	      "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n",
	      got);
	is_str(got->buf, "Acked-by: Valentin <v@example.org>\n",
	       "tags a blank line away from a --- and a diff are given");

	given("Try:\n\n"
	      "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n"
	      "[...]\n\nAcked-by: After A Cut Diff <c@x>\n", got);
	is_str(got->buf, "Acked-by: After A Cut Diff <c@x>\n",
	       "a diff cut short ends at the first line that is not a "
	       "hunk's");
}

/* A faithful kernel-test-robot report in the 2019..2022 wording. */
static void test_bots(struct strbuf *got)
{
	given("Hi Christopher,\n\n"
	      "Thank you for the patch! Yet something to improve:\n\n"
	      "[auto build test ERROR on linus/master]\n\n"
	      "If you fix the issue, kindly add following tag\n"
	      "Reported-by: kbuild test robot <lkp@intel.com>\n\n"
	      "All errors (new ones prefixed by >>):\n", got);
	is_str(got->buf, "", "the kernel test robot's tag is not given");

	given("syzbot found the following issue on:\n\n"
	      "IMPORTANT: if you fix the issue, please add the following tag "
	      "to the commit:\n"
	      "Reported-by: syzbot+0123456789abcdef0123@syzkaller.appspotmail.com\n\n"
	      "general protection fault in f\n", got);
	is_str(got->buf, "", "syzbot's tag is not given");

	given("Hello,\n\n"
	      "smatch warnings:\n"
	      "mm/f.c:10 f() error: uninitialized symbol 'x'.\n\n"
	      "If you fix the issue in a separate patch/commit (i.e. not just "
	      "a new version of\n"
	      "the same patch/commit), kindly add following tags\n"
	      "| Reported-by: kernel test robot <lkp@intel.com>\n"
	      "| Reported-by: Dan Carpenter <error27@gmail.com>\n"
	      "| Closes: https://lore.kernel.org/r/202301010000.abcdefgh-lkp@intel.com/\n\n"
	      "Reviewed-by: Dan Carpenter <error27@gmail.com>\n", got);
	is_str(got->buf, "Reviewed-by: Dan Carpenter <error27@gmail.com>\n",
	       "a person's smatch report: the bot's tags are not given, the "
	       "person's own are");
}

/* The reports in body from name <addr>: "who | what | link\n" each. */
static int reports(const char *body, size_t len, const char *name,
		   const char *addr, struct strbuf *out)
{
	struct trailer_list tl;
	struct bot_report_list rl;
	size_t i;
	int n;

	trailer_list_init(&tl);
	bot_report_list_init(&rl);
	n = reply_parse(&tl, &rl, body, len, name, addr);
	strbuf_reset(out);
	for (i = 0; i < rl.nr; i++)
		strbuf_addf(out, "%s | %s | %s\n", rl.items[i].who,
			    rl.items[i].what ? rl.items[i].what : "-",
			    rl.items[i].link ? rl.items[i].link : "-");
	for (i = 0; i < tl.nr; i++)
		strbuf_addf(out, "given %s: %s\n", tl.items[i].key,
			    tl.items[i].value);
	if (n != (int)tl.nr)
		strbuf_addstr(out, "(wrong count)\n");
	trailer_list_release(&tl);
	bot_report_list_release(&rl);
	return n;
}

static int reports_of(const char *body, const char *name, const char *addr,
		      struct strbuf *out)
{
	return reports(body, strlen(body), name, addr, out);
}

static void test_bot_reports(struct strbuf *got)
{
	reports_of("Hello,\n\n"
		   "syzbot found the following issue on:\n\n"
		   "IMPORTANT: if you fix the issue, please add the following "
		   "tag to the commit:\n"
		   "Reported-by: syzbot+0123456789abcdef0123@syzkaller.appspotmail.com\n\n"
		   "general protection fault in f\n", "syzbot",
		   "syzbot+0123456789abcdef0123@syzkaller.appspotmail.com", got);
	is_str(got->buf, "syzbot+0123456789abcdef0123@syzkaller.appspotmail.com"
	       " | a crash | -\n", "syzbot's report");

	reports_of("syzbot has tested the proposed patch and the reproducer "
		   "did not trigger any issue:\n\n"
		   "Reported-and-tested-by: syzbot+0123@syzkaller.appspotmail.com\n",
		   "syzbot", "syzbot+0123@syzkaller.appspotmail.com", got);
	is_str(got->buf, "syzbot+0123@syzkaller.appspotmail.com | the patch "
	       "tested | -\n", "every tag in a bot's mail is its report's");

	reports_of("smatch warnings:\n"
		   "mm/f.c:10 f() error: uninitialized symbol 'x'.\n\n"
		   "If you fix the issue in a separate patch/commit (i.e. not "
		   "just a new version of\n"
		   "the same patch/commit), kindly add following tags\n"
		   "| Reported-by: kernel test robot <lkp@intel.com>\n"
		   "| Reported-by: Dan Carpenter <error27@gmail.com>\n"
		   "| Closes: https://lore.kernel.org/r/202301010000.abcdefgh-lkp@intel.com/\n\n"
		   "Reviewed-by: Dan Carpenter <error27@gmail.com>\n",
		   "Dan Carpenter", "error27@gmail.com", got);
	is_str(got->buf, "kernel test robot <lkp@intel.com>, Dan Carpenter "
	       "<error27@gmail.com> | smatch warnings | "
	       "https://lore.kernel.org/r/202301010000.abcdefgh-lkp@intel.com/\n"
	       "given Reviewed-by: Dan Carpenter <error27@gmail.com>\n",
	       "a person's mail with the bot's wording: a report, and what "
	       "the person gives");

	reports_of("Please add the following tag:\n"
		   "Fixes: 0123456789ab (\"mm: x\")\n", "A Reviewer",
		   "r@example.org", got);
	is_str(got->buf, "given Fixes: 0123456789ab (\"mm: x\")\n",
	       "a person asking for a tag is no bot");

	ok(reply_from_bot("kernel test robot", "oliver.sang@intel.com") &&
	   reply_from_bot(NULL, "lkp@intel.com") &&
	   reply_from_bot("", "pr-tracker-bot@kernel.org") &&
	   reply_from_bot("", "patchwork-bot+netdevbpf@kernel.org") &&
	   !reply_from_bot("Robert Abbott", "abbot@example.org") &&
	   !reply_from_bot(NULL, NULL), "bots by name and address");
}

/* The body of the message msgid in data/mail/file, as the mailset reads it. */
static int real_reply(const char *data, const char *file, const char *msgid,
		      struct strbuf *got)
{
	struct strbuf path = STRBUF_INIT;
	struct mbox_msg msg;
	struct mbox *mb;
	int r, found = 0;

	strbuf_addf(&path, "%s/mail/%s", data, file);
	if (mbox_open(&mb, path.buf, MBOX_AUTO) < 0) {
		diag(error_last());
		strbuf_release(&path);
		return 0;
	}
	while (!found && (r = mbox_next(mb, &msg)) > 0) {
		struct mail_where where = { path.buf, msg.number };
		struct mail_header h;
		struct mail_body b;

		mail_header_init(&h);
		mail_body_init(&b);
		if (mail_header_scan(&h, msg.data, msg.len, &where) == 0 &&
		    h.message_id && !strcmp(h.message_id, msgid) &&
		    mail_body_parse(&b, msg.data, msg.len, &where) == 0) {
			reports(b.text, b.len, h.from.name, h.from.addr, got);
			found = 1;
		}
		mail_body_release(&b);
		mail_header_release(&h);
	}
	mbox_free(mb);
	strbuf_release(&path);
	return found;
}

static void test_real_reports(struct strbuf *got)
{
	const char *data = test_data_dir();

	if (!ok(data != NULL, "the real mail of tests/data is found"))
		return;
	ok(real_reply(data, "spinlock-oops/v3.mbox",
		      "201908120917.L7bXpUsz%lkp@intel.com", got),
	   "the 2019 kbuild test robot reply is read");
	is_str(got->buf, "kbuild test robot <lkp@intel.com> | build errors | -\n",
	       "its \"kindly add following tag\" Reported-by is its report");
	ok(real_reply(data, "bots/objtool-lkp.mbox",
		      "202306241520.4jIgEhK4-lkp@intel.com", got),
	   "the 2023 kernel test robot reply is read");
	is_str(got->buf, "kernel test robot <lkp@intel.com> | build warnings | "
	       "https://lore.kernel.org/oe-kbuild-all/202306241520.4jIgEhK4-lkp@intel.com/\n",
	       "its \"| Reported-by:\" and \"| Closes:\" are its report");
}

int main(void)
{
	struct strbuf got = STRBUF_INIT;

	test_plain(&got);
	test_pasted_commits(&got);
	test_pasted_patches(&got);
	test_bots(&got);
	test_bot_reports(&got);
	test_real_reports(&got);
	strbuf_release(&got);
	return done_testing();
}
