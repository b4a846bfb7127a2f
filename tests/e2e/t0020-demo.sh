#!/bin/sh
# make demo's script: the main job on the built-in example.
. "$(dirname "$0")/lib.sh"

test_expect_success 'the demo tracks two versions and shows the range-diff' '
	DEMO_DIR="$TRASH/demo" sh "$SRC_DIR/tools/demo.sh" >out &&
	test_grep "^demo v1: 3 patches on mm-unstable" out &&
	test_grep "^demo v2: 4 patches on mm-unstable" out &&
	test_grep "^\$ respin diff demo v1 v2$" out &&
	test_grep "^[0-9]:  [0-9a-f]* [=!] [0-9]:  [0-9a-f]* " out &&
	test_grep "^-:  ------- > 4:  [0-9a-f]* mm: document the v2 change$" out
'

test_done
