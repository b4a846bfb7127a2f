#!/bin/sh
# Golden test on a real series: lru_gen-batch v1..v3 from real list mail,
# recorded from mail only (their base is not here).  v3 reordered the
# patches (the prefetch patch moved from 3/3 to 1/3), fixed two subjects
# ("againg", "canning") and changed the code of every patch; its cover
# letter says so, keeps the author's own changelogs ("Updates from V2",
# "Update from V1"), and links v1 and v2 by their real Message-IDs.
. "$(dirname "$0")/lib.sh"

MAIL="$TEST_DATA/mail/lru_gen-batch"
git init -q repo && cd repo || exit 1
git commit -q --allow-empty -m init
git config respin.lore-url https://lore.kernel.org/linux-mm

test_expect_success 'import v1, v2 and v3 from mail only' '
	for v in 1 2 3; do
		respin import lru "$MAIL/v$v.mbox" --mail-only >out 2>&1 ||
			{ cat out; exit 1; }
		test_grep "^lru v$v: 3 patches recorded from mail only" out || exit 1
	done
'

test_expect_success 'v3: the subject and title as sent' '
	respin cover lru >v3 && cat v3 &&
	test "$(head -n 1 v3)" = "Subject: [PATCH v3 0/3] mm, lru_gen: batch update pages when aging"
'

test_expect_success 'v3: the changelogs, with the reordering, the rewordings and links' '
	sed -n "/^Changes in v3:$/,/^---$/p" v3 >changes &&
	cat >want <<-\EOW &&
	Changes in v3:
	- Add more tests and simplify patch 2/3 to contain only one gen info for
	  batch, as Wei Xu suggests that the batch struct may use too much stack.
	- Add more tests, and test individual patch as requested by Wei Xu.
	- Fix typo as pointed out by Andrew Morton.
	- 1/3 "mm, lru_gen: try to prefetch next page when scanning LRU": moved
	  (was 3/3); reworded (was "mm, lru_gen: try to prefetch next page when
	  canning LRU"); code changed
	- 2/3 "mm, lru_gen: batch update counters on aging": reworded (was "mm,
	  lru_gen: batch update counters on againg"); code changed
	- 3/3 "mm, lru_gen: move pages in bulk when aging": code changed
	- Link to v2: https://lore.kernel.org/linux-mm/20240111183321.19984-1-ryncsn@gmail.com/

	Changes in v2:
	- Fix function argument type as suggested by Chris Li.
	- Link to v1: https://lore.kernel.org/linux-mm/20231222102255.56993-1-ryncsn@gmail.com/

	---
	EOW
	check_same want changes
'

test_expect_success 'respin diff pairs v2 and v3 as the cover letter does' '
	respin diff -s lru v2 v3 >pairs && cat pairs &&
	sed "s/[0-9a-f]\{7,\}/X/g" pairs >got &&
	cat >want <<-\EOW &&
	3:  X ! 1:  X mm, lru_gen: try to prefetch next page when canning LRU (paired by title)
	1:  X ! 2:  X mm, lru_gen: batch update counters on againg (paired by title)
	2:  X ! 3:  X mm, lru_gen: move pages in bulk when aging (paired by title)
	EOW
	check_same want got
'

test_expect_success 'v3: the text as the author wrote it, without its old tail' '
	sed -n "3,/^Changes in v3:$/p" v3 >body &&
	head -n 1 body | grep -q "^Link V1:$" &&
	test_grep "^individual patch is in the commit message.$" body &&
	test_grep "^After this series (+7.1%):$" body &&
	test_grep ! "^From: Kairui Song" body &&
	test_grep ! "^Updates from V2:$" body && test_grep ! "^Update from V1:$" body &&
	test $(grep -c "^Kairui Song (3):$" v3) = 1 &&
	test_grep ! "^2\.43\.0$" v3
'

test_expect_success 'v3: shortlog in the new order, the sender'"'"'s diffstat' '
	sed -n "/^Kairui Song (3):$/,/^---$/p" v3 >tail &&
	cat >want <<-\EOW &&
	Kairui Song (3):
	  mm, lru_gen: try to prefetch next page when scanning LRU
	  mm, lru_gen: batch update counters on aging
	  mm, lru_gen: move pages in bulk when aging

	 mm/vmscan.c | 145 ++++++++++++++++++++++++++++++++++++++++++++--------
	 1 file changed, 125 insertions(+), 20 deletions(-)
	---
	EOW
	check_same want tail &&
	test_grep ! "^base-commit:" v3 && test_grep "^change-id: " v3
'

test_expect_success 'v2: its own changes against v1 and the link to v1' '
	respin cover lru@v2 >v2 &&
	sed -n "/^Changes in v2:$/,/^---$/p" v2 >changes &&
	cat >want <<-\EOW &&
	Changes in v2:
	- 1/3 "mm, lru_gen: batch update counters on againg": code changed
	- 2/3 "mm, lru_gen: move pages in bulk when aging": code changed
	- 3/3 "mm, lru_gen: try to prefetch next page when canning LRU": commit
	  message changed
	- Link to v1: https://lore.kernel.org/linux-mm/20231222102255.56993-1-ryncsn@gmail.com/

	---
	EOW
	check_same want changes &&
	respin cover lru@v1 >v1 && test_grep ! "Changes in" v1 &&
	test "$(head -n 1 v1)" = "Subject: [PATCH 0/3] mm, lru_gen: batch update pages when aging"
'

test_expect_success '--json gives the same subject and body' '
	respin cover lru --json >j &&
	perl -MJSON::PP -e "
		local \$/; my \$d = decode_json(<STDIN>);
		open my \$f, q(<), q(v3) or die; my \$t = <\$f>;
		my (\$subj, \$body) = \$t =~ /^Subject: (.*?)\n\n(.*)\z/s or exit 2;
		exit 3 unless \$d->{subject} eq \$subj;
		exit 4 unless \$d->{body} eq \$body;
		exit 5 unless \$d->{version} == 3 && \$d->{stored_text};
	" <j
'

test_expect_success 'format refuses a version recorded from mail only, and says what to do' '
	test_expect_code 128 respin format lru -o mails 2>err &&
	test_grep "recorded from mail only" err && test_path_is_missing mails
'

test_done
