#!/bin/sh
# respin report: one self-contained HTML page with a table a version and
# a plot a benchmark, checked in a real headless Chromium (screenshot
# not blank, the expected plots and tables in the DOM, subjects from
# mail escaped, nothing fetched from the network).
. "$(dirname "$0")/lib.sh"

make_checked_fixture k && cd k || { echo "Bail out! no fixture or checkpatch.pl"; exit 1; }

# 2 has a subject that would be markup if it were not escaped; 3 has
# trailing whitespace (the "tidy" check fails on it in v1).
tick
sed -i 's/^\tif (!free_blocks_total)$/\tif (!free_blocks_total || !requested)/' mm/compaction.c
git commit -qam "mm/compaction: guard fragmentation_index() against a zero request" \
	-m "Signed-off-by: A U Thor <author@example.org>"
tick
sed -i 's/^\tunsigned int o;$/\tunsigned int o;\n\tint unused_marker;/' mm/compaction.c
git commit -qam 'mm: <script>alert("x")</script> & <b>friends</b>' \
	-m "Signed-off-by: A U Thor <author@example.org>"
tick
printf '\nint vmscan_extra(void) { return 1; }   \n' >>mm/vmscan.c
git commit -qam "mm/vmscan: add vmscan_extra()" \
	-m "Signed-off-by: A U Thor <author@example.org>"
respin track k --base mm-unstable >/dev/null

# ops (higher is better): 100 on the base, 110 with vmscan_extra()
# returning 1, 105 once it returns 2; lat (lower is better) 50, 45, 47.
cat >"$TRASH/bench.sh" <<'EOB'
#!/bin/sh
ops=100 lat=50
grep -q 'vmscan_extra(void) { return 1; }' mm/vmscan.c && ops=110 lat=45
grep -q 'return 2;' mm/vmscan.c && ops=105 lat=47
seed=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
awk -v o=$ops -v l=$lat -v s=$seed 'BEGIN { srand(s);
	printf "respin-metric: ops %.3f\n", o + (rand() - 0.5) * 2
	printf "respin-metric: lat %.3f\n", l + (rand() - 0.5) }'
EOB
git config respin.check.ops.kind bench
git config respin.check.ops.command "sh $TRASH/bench.sh"
git config respin.check.ops.metric ops
git config respin.check.ops.runs 5..8
git config respin.check.latency.kind bench
git config respin.check.latency.command "sh $TRASH/bench.sh"
git config respin.check.latency.metric lat
git config respin.check.latency.higher false
git config respin.check.latency.runs 5..8
git config respin.check.tidy.kind command
git config respin.check.tidy.command "! grep -q ' \$' mm/vmscan.c"

test_expect_success 'v1 and v2 are checked, two benches each' '
	# v1: patch 3 has trailing whitespace, tidy fails there
	test_expect_code 1 respin check k >out 2>err &&
	test_grep "^[0-9]* run, 0 reused, [1-9][0-9]* failed$" out &&
	tick &&
	sed -i "s/^int vmscan_extra(void) { return 1; }   $/int vmscan_extra(void)\n{\n\treturn 2;\n}/" mm/vmscan.c &&
	git commit -q --amend -a --no-edit &&
	mark_sent k && respin track k >/dev/null &&
	respin check k >out 2>err &&
	test_grep "^[0-9]* run, [0-9]* reused, 0 failed$" out &&
	respin results k@v1 >t1 && respin results k@v2 >t2 && cat t1 t2 &&
	test_grep "^ *3/3 .*FAIL" t1
'

test_expect_success 'report -o writes the page, and nothing else' '
	respin report k -o "$TRASH/r.html" >out 2>err &&
	test ! -s out && test ! -s err && test -s "$TRASH/r.html" &&
	test -z "$(ls "$TRASH" | grep "r.html.tmp")" &&
	respin report k >stdout.html && cmp stdout.html "$TRASH/r.html"
'

test_expect_success 'the page: series, change-id, versions, tables, plots' '
	r="$TRASH/r.html" &&
	test_grep "<h1>respin report: k</h1>" "$r" &&
	respin show k --json >show.json &&
	test_grep "\"change_id\": \"[0-9]\{8\}-k-[0-9a-f]\{12\}\"" show.json &&
	cid=$(sed -n "s/.*\"change_id\": \"\([^\"]*\)\".*/\1/p" show.json | head -n 1) &&
	test -n "$cid" &&
	test_grep "<dt>change-id</dt><dd>$cid</dd>" "$r" &&
	test_grep "<b>v1</b>: 3 patches" "$r" && test_grep "<b>v2</b>: 3 patches" "$r" &&
	test $(grep -c "<svg " "$r") = 2 &&
	test $(grep -c "<table " "$r") = 2 &&
	test_grep "ops: ops (higher is better)" "$r" &&
	test_grep "latency: lat (lower is better)" "$r" &&
	test_grep ">v1</text>" "$r" && test_grep ">v2</text>" "$r" &&
	test_grep "<td class=\"fail\"" "$r" && test_grep "<td class=\"pass\"" "$r" &&
	# 3/3 is 10% faster than the base on ops, 10% quicker on lat
	test_grep "<td class=\"pass better\"" "$r" &&
	test_grep "<th>3/3</th>" "$r" && test_grep "ok +1 warning" "$r" &&
	v2=$(grep -n "id=\"v2\"" "$r" | cut -d: -f1) &&
	v1=$(grep -n "id=\"v1\"" "$r" | cut -d: -f1) && test "$v2" -lt "$v1"
'

test_expect_success 'subjects are escaped, nothing is fetched' '
	r="$TRASH/r.html" &&
	test_grep "mm: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;friends&lt;/b&gt;" "$r" &&
	test_grep ! "<script" "$r" && test_grep ! "<b>friends" "$r" &&
	test_grep ! -i "https\?://" "$r" && test_grep ! -i "<link\|<img\|<iframe\|url(" "$r"
'

test_expect_success 'NAME@vN: that version only' '
	respin report k@v1 >v1.html &&
	test $(grep -c "<table " v1.html) = 1 && test_grep "id=\"v1\"" v1.html &&
	test_grep ! "id=\"v2\"" v1.html &&
	test $(grep -c "<svg " v1.html) = 2 && test_grep ! ">v2</text>" v1.html
'

test_expect_success 'a series with no results yet: a page that says so' '
	git checkout -q -b fresh-base mm-unstable && tick &&
	echo "/* a new base */" >>mm/compaction.c && git commit -qam "a new base" &&
	git checkout -q -b fresh && tick && echo "/* fresh */" >>mm/vmscan.c &&
	git commit -qam "mm/vmscan: a fresh comment" -m "Signed-off-by: A U Thor <author@example.org>" &&
	respin track fresh --base fresh-base >/dev/null && git checkout -q work &&
	respin report fresh >f.html && test_grep "No version has stored results yet" f.html &&
	test_grep ! "<table\|<svg" f.html &&
	respin report fresh@v1 >f1.html && test_grep "No stored results: run <code>respin check fresh@v1" f1.html
'

test_expect_success 'an unknown series' '
	test_expect_code 128 respin report nosuch -o "$TRASH/x.html" 2>err &&
	test_grep "nosuch" err &&
	test_path_is_missing "$TRASH/x.html"
'

test_expect_code 128 'an unknown version' 'respin report k@v9 >/dev/null'

test_expect_success 'an output directory that does not exist' '
	test_expect_code 128 respin report k -o "$TRASH/no/such/dir/r.html" 2>err &&
	test_grep "no directory $TRASH/no/such/dir" err
'

test_expect_success 'a bad option' '
	test_expect_code 129 respin report k --frobnicate 2>err &&
	test_grep "unknown option .--frobnicate." err &&
	test_grep "^usage: respin report " err
'

test_expect_success 'no series' '
	test_expect_code 129 respin report 2>err &&
	test_grep "which series?" err
'

test_expect_success 'two series' '
	test_expect_code 129 respin report k k 2>err &&
	test_grep "^usage: respin report " err
'

# PNG: width, height, distinct colours, share of non-white pixels, and
# whether colours near the given ones (#rrggbb) occur.
cat >"$TRASH/png.py" <<'EOP'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat = 8, b''
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6), 'PNG type %d/%d' % (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
colours, ink = {}, 0
for line in rows:
    for x in range(0, stride, bpp):
        px = bytes(line[x:x + 3]); colours[px] = colours.get(px, 0) + 1
        if px != b'\xff\xff\xff': ink += 1
print('size %dx%d colours %d ink %.3f' % (w, h, len(colours), ink / (w * h)))
for want in sys.argv[2:]:
    rgb = bytes.fromhex(want.lstrip('#'))
    hits = sum(n for px, n in colours.items() if max(abs(px[i] - rgb[i]) for i in range(3)) <= 4)
    print('colour %s %d' % (want, hits))
EOP

chrome() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--disable-dev-shm-usage --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run \
		--user-data-dir="$TRASH/chrome" "$@" 2>>"$TRASH/chrome.log"
}

if command -v chromium >/dev/null 2>&1; then
	test_expect_success 'Chromium renders it: plots and tables in the DOM, no console message' '
		chrome --enable-logging=stderr --v=0 \
			--dump-dom "file://$TRASH/r.html" >dom.html &&
		test_grep ! -e ":CONSOLE" -e "Uncaught" "$TRASH/chrome.log" &&
		test $(grep -o "<svg " dom.html | wc -l) = 2 &&
		test $(grep -o "<table " dom.html | wc -l) = 2 &&
		test $(grep -o "<circle " dom.html | wc -l) -ge 16 &&
		test_grep ! "<script" dom.html &&
		test_grep "&lt;script&gt;alert" dom.html
	'

	test_expect_success 'Chromium renders it: the screenshot is not blank' '
		chrome --screenshot="$TRASH/shot.png" --window-size=1200,1600 \
			"file://$TRASH/r.html" >/dev/null &&
		test $(wc -c <"$TRASH/shot.png") -gt 20000 &&
		python3 "$TRASH/png.py" "$TRASH/shot.png" 1f77b4 d62728 >png.txt &&
		cat png.txt && test_grep "^size 1200x1600 " png.txt &&
		perl -ne "exit 1 if /^size .* colours (\d+) ink ([\d.]+)/ && (\$1 < 50 || \$2 < 0.02);
			exit 1 if /^colour \S+ (\d+)/ && \$1 < 30" png.txt &&
		mkdir -p "$RESPIN_BUILD/test-output" &&
		cp "$TRASH/shot.png" "$RESPIN_BUILD/test-output/$TEST_NAME.png" &&
		echo "# the screenshot: $RESPIN_BUILD/test-output/$TEST_NAME.png"
	'
else
	test_skip 'no chromium: apt-get install chromium'
	test_skip 'no chromium: apt-get install chromium'
fi

test_done
