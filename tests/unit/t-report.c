// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report page's pieces that need no repository: HTML escaping and
 * the SVG plot of fixed data.
 */
#include "review/report.h"
#include "tools/lib/strbuf.h"
#include "tests/unit/tap.h"

#include <math.h>

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

static void test_escape(void)
{
	struct strbuf sb = STRBUF_INIT;

	report_escape(&sb, "<script>alert(\"x\")</script> & 'y'");
	is_str(sb.buf, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; "
	       "&amp; &#39;y&#39;", "markup and quotes are escaped");
	strbuf_reset(&sb);
	report_escape(&sb, "a\x01" "b\x7f" "c\td");
	is_str(sb.buf, "a?b?c\td", "control characters are replaced");
	strbuf_reset(&sb);
	report_escape(&sb, "f\xc3\xbcr &amp;");
	is_str(sb.buf, "f\xc3\xbcr &amp;amp;", "UTF-8 kept, & always escaped");
	strbuf_reset(&sb);
	report_escape(&sb, NULL);
	is_str(sb.buf, "", "NULL is empty");
	strbuf_release(&sb);
}

static void test_plot(void)
{
	struct report_point v1[] = {
		{ 1, 100, 99, 101 }, { 1, 101, 100, 102 }, { 1, 110, 109, 111 },
	};
	struct report_point v2[] = {
		{ 1, 100, 99, 101 }, { 0, 0, NAN, NAN }, { 1, 105, NAN, NAN },
	};
	struct report_line lines[] = { { 1, v1, 3 }, { 2, v2, 3 } };
	struct report_plot p = { "fio<1>", "bw&MiBps", 1, 0, lines, 2 };
	struct strbuf sb = STRBUF_INIT;

	report_plot_svg(&sb, &p);
	ok(!strncmp(sb.buf, "<svg ", 5), "an <svg> element");
	ok(!strcmp(sb.buf + sb.len - 7, "</svg>\n"), "closed");
	ok(strstr(sb.buf, ">fio&lt;1&gt;: bw&amp;MiBps (higher is better)"
		  "</text>") != NULL, "title: check, metric, direction");
	ok(!strstr(sb.buf, "fio<1>") && !strstr(sb.buf, "bw&M"),
	   "no raw name anywhere");
	/* 5 points with a mean, 2 legend dots */
	is_int(count(sb.buf, "<circle "), 7, "a dot a point and a legend dot");
	/* 3 intervals of v1, 1 of v2, 3 lines each */
	is_int(count(sb.buf, "stroke-width=\"2\""), 12, "interval bars");
	/* v1 joins 0-1 and 1-2; v2 skips the gap */
	is_int(count(sb.buf, "stroke-opacity"), 2, "means joined");
	/* 99..111 on steps of 2: 98, 100, ..., 112 */
	is_int(count(sb.buf, "class=\"grid\""), 8, "8 grid lines");
	ok(strstr(sb.buf, ">98</text>") && strstr(sb.buf, ">112</text>"),
	   "value axis from 98 to 112");
	ok(strstr(sb.buf, ">base</text>") && strstr(sb.buf, ">2/2</text>"),
	   "positions: base, 1/2, 2/2");
	ok(strstr(sb.buf, ">v1</text>") && strstr(sb.buf, ">v2</text>"),
	   "a legend entry a version");
	ok(!strstr(sb.buf, "nan") && !strstr(sb.buf, "inf"), "no NaN drawn");
	ok(!strstr(sb.buf, "http"), "no namespace URL or link");
	strbuf_release(&sb);
}

static void test_plot_flat(void)
{
	struct report_point pts[] = { { 1, 0.5, NAN, NAN } };
	struct report_line line = { 3, pts, 1 };
	struct report_plot p = { "t", "seconds", 0, 1, &line, 1 };
	struct strbuf sb = STRBUF_INIT;

	report_plot_svg(&sb, &p);
	ok(strstr(sb.buf, "(lower is better)") != NULL, "lower is better");
	ok(strstr(sb.buf, "harmonic mean") != NULL, "says harmonic");
	is_int(count(sb.buf, "<circle "), 2, "one point, one legend dot");
	ok(strstr(sb.buf, ">0.48</text>") && strstr(sb.buf, ">0.52</text>"),
	   "a single value gets a range around it");
	ok(!strstr(sb.buf, "nan") && !strstr(sb.buf, "inf"), "no NaN drawn");
	strbuf_release(&sb);

	p.nr = 0;
	report_plot_svg(&sb, &p);
	ok(strstr(sb.buf, "</svg>") && !strstr(sb.buf, "nan"),
	   "no data at all is still a plot");
	strbuf_release(&sb);
}

int main(void)
{
	test_escape();
	test_plot();
	test_plot_flat();
	return done_testing();
}
