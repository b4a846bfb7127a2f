#!/bin/sh
# The source keeps its layout (tests/layout.sh): command files stay
# short, and no file includes one from a folder above it.
. "$(dirname "$0")/lib.sh"

test_expect_success 'the checkout keeps the layout' '
	{ sh "$SRC_DIR/tests/layout.sh" "$SRC_DIR" >out 2>&1 ||
	  echo "tests/layout.sh exited $?" >>out; } &&
	test_must_be_empty out
'

# A small tree with one breach of each rule, beside files that keep them.
test_expect_success 'a long command file and includes that run up are found' '
	mkdir -p src/tools/lib src/patches src/series src/ci src/review &&
	echo "#include \"strbuf.h\"" >src/tools/lib/a.c &&
	echo "#include \"ci/b.h\"" >src/tools/lib/b.c &&
	echo "#include \"series/store.h\"" >src/patches/mail.c &&
	echo "#include \"patches/mail.h\"" >src/series/ok.c &&
	echo "#include \"tools/builtin.h\"" >src/review/cover.c &&
	{
		echo "#include \"tools/builtin.h\"" &&
		echo "#include \"ci/results.h\"" &&
		i=0 &&
		while [ $i -lt 400 ]; do
			echo "/* $i */" &&
			i=$((i + 1)) || return 1
		done
	} >src/series/cmd-long.c &&
	sed 10q src/series/cmd-long.c >src/review/cmd-short.c &&
	test_expect_code 1 sh "$SRC_DIR/tests/layout.sh" src >out &&
	test_grep "^series/cmd-long.c: 402 lines" out &&
	test_grep "^tools/lib/b.c includes ci/b.h: ci/ is above tools/lib/" out &&
	test_grep "^patches/mail.c includes series/store.h" out &&
	test_grep "^series/cmd-long.c includes ci/results.h" out &&
	test_grep "^review/cover.c includes tools/builtin.h" out &&
	test $(wc -l <out) -eq 5
'

test_done
