// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Review comments out of a reply: the reviewer's text with the quote it
 * answers, placed in the diff (file, hunk), attribution, trailers and
 * signature left out; answered and addressed.
 */
#include "review/comments.h"
#include "tests/unit/tap.h"

static const char diff[] =
	"diff --git a/mm/vmscan.c b/mm/vmscan.c\n"
	"index 1111111..2222222 100644\n"
	"--- a/mm/vmscan.c\n"
	"+++ b/mm/vmscan.c\n"
	"@@ -10,6 +10,8 @@ static int scan(void)\n"
	" \tint a;\n"
	"+\tint batch = 0;\n"
	"+\tbatch++;\n"
	" \treturn a;\n"
	"diff --git a/mm/swap.c b/mm/swap.c\n"
	"--- a/mm/swap.c\n"
	"+++ b/mm/swap.c\n"
	"@@ -1,3 +1,4 @@\n"
	" x\n"
	"+\tswap_more();\n";

static const char other_context[] =
	"diff --git a/mm/swap.c b/mm/swap.c\n"
	"--- a/mm/swap.c\n"
	"+++ b/mm/swap.c\n"
	"@@ -1,3 +1,4 @@\n"
	" y\n"
	"+\tswap_more();\n";

static const char reply[] =
	"On Fri, 12 Jan 2024 02:33:19 +0800, Kairui Song wrote:\n"
	"> When lru_gen is aging, it will update mm counters page by page.\n"
	">\n"
	"\n"
	"Which counters?\n"
	"\n"
	"> diff --git a/mm/vmscan.c b/mm/vmscan.c\n"
	"> @@ -10,6 +10,8 @@ static int scan(void)\n"
	">  \tint a;\n"
	"> +\tint batch = 0;\n"
	"\n"
	"This needs a comment,\n"
	"and a name.\n"
	"\n"
	"[...]\n"
	"> +\tswap_more();\n"
	"\n"
	"Why here?\n"
	"\n"
	"Reviewed-by: Rita Rev <rita@example.org>\n"
	"\n"
	"-- \n"
	"Rita\n";

int main(void)
{
	struct comment_list l, ans;
	const char answer[] =
		"On Sat, Rita Rev wrote:\n"
		"> This needs a comment,\n"
		"> and a name.\n"
		"\n"
		"Will fix in v3.\n";
	const char no_answer[] = "> Why here?\n";
	const char changed[] =
		"diff --git a/mm/vmscan.c b/mm/vmscan.c\n"
		"--- a/mm/vmscan.c\n"
		"+++ b/mm/vmscan.c\n"
		"@@ -10,6 +10,9 @@ static int scan(void)\n"
		" \tint a;\n"
		"+\t/* pages moved at once */\n"
		"+\tint nr_batch = 0;\n"
		"+\tnr_batch++;\n"
		" \treturn a;\n"
		"diff --git a/mm/swap.c b/mm/swap.c\n"
		"--- a/mm/swap.c\n"
		"+++ b/mm/swap.c\n"
		"@@ -1,3 +1,4 @@\n"
		" x\n"
		"+\tswap_more();\n";

	comment_list_init(&l);
	is_int((long long)comments_parse(&l, reply, sizeof(reply) - 1, diff,
					 sizeof(diff) - 1), 3, "three comments");
	is_str(l.items[0].text.buf, "Which counters?\n", "1: its text, no attribution");
	is_str(l.items[0].quote.buf, "When lru_gen is aging, it will update mm counters page by page.\n",
	       "1: the quote it answers");
	ok(!l.items[0].file, "1: quoting the message, not the diff");
	is_str(l.items[1].text.buf, "This needs a comment,\nand a name.\n", "2: its text");
	is_str(l.items[1].file, "mm/vmscan.c", "2: the file, from the quoted header");
	is_str(l.items[1].hunk, "@@ -10,6 +10,8 @@ static int scan(void)", "2: the hunk");
	is_str(l.items[2].text.buf, "Why here?\n", "3: no trailer, no signature in it");
	is_str(l.items[2].file, "mm/swap.c", "3: the file, found in the patch's diff");
	is_str(l.items[2].hunk, "@@ -1,3 +1,4 @@", "3: the hunk, found in the patch's diff");

	comment_list_init(&ans);
	comments_parse(&ans, answer, sizeof(answer) - 1, NULL, 0);
	ok(comment_answered_by(&l.items[1], &ans), "2 is answered by a reply quoting it");
	ok(!comment_answered_by(&l.items[0], &ans), "1 is not");
	comment_list_release(&ans);
	comments_parse(&ans, no_answer, sizeof(no_answer) - 1, NULL, 0);
	ok(!comment_answered_by(&l.items[2], &ans), "a quote with nothing under it is no answer");
	comment_list_release(&ans);

	ok(comment_addressed(&l.items[1], NULL, diff, NULL, changed), "2: its file changed in the next version");
	ok(!comment_addressed(&l.items[2], NULL, diff, NULL, changed), "3: its file did not");
	ok(!comment_addressed(&l.items[1], NULL, diff, NULL, diff), "the same diff: nothing addressed");
	{
		/* another hunk of the same file changed; the one quoted not */
		const char other_hunk[] =
			"diff --git a/mm/vmscan.c b/mm/vmscan.c\n"
			"--- a/mm/vmscan.c\n"
			"+++ b/mm/vmscan.c\n"
			"@@ -10,6 +10,8 @@ static int scan(void)\n"
			" \tint a;\n"
			"+\tint batch = 0;\n"
			"+\tbatch++;\n"
			" \treturn a;\n"
			"@@ -40,3 +42,4 @@ static int more(void)\n"
			"+\tmore_work();\n"
			"diff --git a/mm/swap.c b/mm/swap.c\n"
			"--- a/mm/swap.c\n"
			"+++ b/mm/swap.c\n"
			"@@ -1,3 +1,4 @@\n"
			" x\n"
			"+\tswap_more();\n";

		ok(!comment_addressed(&l.items[1], NULL, diff, NULL, other_hunk),
		   "2: another hunk of its file changed, the lines it quotes did not");
	}
	{
		const char msg[] = "When lru_gen is aging, it will update mm counters page by page.\n";
		const char reworded[] = "When lru_gen ages, it updates the counters per folio.\n";

		ok(!comment_addressed(&l.items[0], msg, diff, msg, changed),
		   "1: the message line it quotes kept, the diff changed: not addressed");
		ok(comment_addressed(&l.items[0], msg, diff, reworded, diff),
		   "1: the message line it quotes reworded: addressed");
		ok(!comment_addressed(&l.items[2], msg, diff, msg, other_context),
		   "3: a context line around it is gone from the diff: not addressed");
	}
	comment_list_release(&l);

	comment_list_init(&l);
	{
		const char top[] = "Looks good to me overall.\n\nOn Mon, X wrote:\n> old text\n";

		comments_parse(&l, top, sizeof(top) - 1, NULL, 0);
		is_int((long long)l.nr, 1, "a top-post is one comment");
		is_str(l.items[0].text.buf, "Looks good to me overall.\n", "without its attribution line");
		ok(!l.items[0].quote.len, "and no quote");
		ok(!comment_addressed(&l.items[0], "old text\n", diff, "new text\n", "diff --git a/x b/x\n@@ -1 +1 @@\n-a\n+b\n"),
		   "a top-post is not addressed by the patch changing");
	}
	comment_list_release(&l);
	return done_testing();
}
