#!/bin/sh
# make demo's script: the main job on the built-in example.
. "$(dirname "$0")/lib.sh"

test_expect_success 'the demo tracks two versions and shows the range-diff' '
	DEMO_DIR="$TRASH/demo" sh "$SRC_DIR/tools/demo.sh" >out 2>err; rc=$?;
	cat out err; test $rc = 0 &&
	grep_q "^demo v1: 3 patches on mm-unstable" out &&
	grep_q "^demo v2: 4 patches on mm-unstable" out &&
	grep_q "^\$ respin diff demo v1 v2$" out &&
	grep -q "^[0-9]:  [0-9a-f]* [=!] [0-9]:  [0-9a-f]* " out &&
	grep_q "^-:  ------- > 4:  [0-9a-f]* mm: document the v2 change$" out
'

test_done
