// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The built-in bench recipes (ci/recipe.c): their table, their command
 * lines, and the parsers of the tools' own output, on real output of
 * stress-ng 0.15.06 and fio 3.33 captured on this kind of machine
 * (tests/data/bench/, see its README).
 */
#include "tap.h"
#include "testdata.h"
#include "ci/recipe.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <math.h>
#include <string.h>

static void fixture(struct strbuf *sb, const char *name)
{
	struct strbuf path = STRBUF_INIT;

	strbuf_reset(sb);
	strbuf_addf(&path, "%s/bench/%s", test_data_dir(), name);
	if (strbuf_read_file(sb, path.buf) < 0)
		printf("# cannot read %s\n", path.buf);
	strbuf_release(&path);
}

/* text with the first "from" replaced by "to" */
static void edit(struct strbuf *out, const char *text, const char *from,
		 const char *to)
{
	const char *p = strstr(text, from);

	strbuf_reset(out);
	if (!p) {
		strbuf_addstr(out, text);
		return;
	}
	strbuf_add(out, text, (size_t)(p - text));
	strbuf_addstr(out, to);
	strbuf_addstr(out, p + strlen(from));
}

static int near(double got, double want, double eps, const char *what)
{
	int r = ok(fabs(got - want) <= eps, "%s", what);

	if (!r)
		printf("#   got: %.9g\n#  want: %.9g\n", got, want);
	return r;
}

static void test_table(void)
{
	const struct recipe *r = recipe_find("stress-ng-vm");
	struct strbuf sb = STRBUF_INIT;

	ok(r && !strcmp(r->metric, "bogo-ops/s") &&
	   !strcmp(r->tool, "stress-ng"), "stress-ng-vm: bogo-ops/s");
	r = recipe_find("fio-randread");
	ok(r && !strcmp(r->metric, "MiB/s") && !strcmp(r->package, "fio"),
	   "fio-randread: MiB/s");
	ok(r && r->seconds > 0 && r->seconds <= 10 && r->format >= 1,
	   "a short fixed time, a format number");
	ok(!recipe_find("stress-ng") && !recipe_find(NULL), "no such recipe");
	recipe_names(&sb);
	is_str(sb.buf, "stress-ng-vm, fio-randread", "the names, for errors");
	strbuf_release(&sb);
}

static void test_argv(void)
{
	const struct recipe *r = recipe_find("stress-ng-vm");
	struct strbuf out = STRBUF_INIT, line = STRBUF_INIT;
	char **argv = recipe_argv(r, "/dev/shm/x");
	size_t i;

	for (i = 0; argv[i]; i++)
		strbuf_addf(&line, "%s%s", i ? " " : "", argv[i]);
	is_str(line.buf, "stress-ng --vm 1 --vm-bytes 64m --timeout 3s "
	       "--metrics-brief --temp-path /dev/shm/x --yaml "
	       "/dev/shm/x/stress-ng.yaml", "stress-ng's command line");
	recipe_output(r, "/dev/shm/x", &out);
	is_str(out.buf, "/dev/shm/x/stress-ng.yaml", "its output file");
	recipe_argv_free(argv);

	r = recipe_find("fio-randread");
	argv = recipe_argv(r, "/tmp/y");
	strbuf_reset(&line);
	for (i = 0; argv[i]; i++)
		strbuf_addf(&line, "%s%s", i ? " " : "", argv[i]);
	is_str(line.buf, "fio --name=randread --filename=/tmp/y/"
	       "fio-randread.data --size=128m --rw=randread --bs=4k "
	       "--ioengine=psync --runtime=3 --time_based "
	       "--output-format=json --output=/tmp/y/fio.json",
	       "fio's command line");
	recipe_argv_free(argv);
	strbuf_release(&out);
	strbuf_release(&line);
}

static void test_stress_ng(void)
{
	const struct recipe *r = recipe_find("stress-ng-vm");
	struct strbuf yaml = STRBUF_INIT, bad = STRBUF_INIT;
	double v = 0;

	fixture(&yaml, "stress-ng-vm.yaml");
	is_int(recipe_parse(r, yaml.buf, yaml.len, &v), 0,
	       "stress-ng's real YAML parses");
	near(v, 27016.548169, 1e-6, "bogo ops a second, real time");
	is_int(recipe_parse_stress_ng_yaml(yaml.buf, yaml.len, "cpu", &v), -1,
	       "no cpu stressor in it");
	ok(strstr(error_last(), "no bogo-ops-per-second-real-time of the "
		  "cpu stressor") != NULL, "  says so: %s", error_last());

	edit(&bad, yaml.buf, "bogo-ops-per-second-real-time: 27016.548169",
	     "bogo-ops-per-second-real-time: 0.000000");
	is_int(recipe_parse(r, bad.buf, bad.len, &v), -1,
	       "a run that did no bogo ops gives no value");
	ok(strstr(error_last(), "did no bogo ops") != NULL, "  says so: %s",
	   error_last());
	edit(&bad, yaml.buf, "metrics:", "other:");
	is_int(recipe_parse(r, bad.buf, bad.len, &v), -1,
	       "the value outside metrics: does not count");
	edit(&bad, yaml.buf, "27016.548169", "fast");
	is_int(recipe_parse(r, bad.buf, bad.len, &v), -1,
	       "a value that is no number");
	/* the system-info block has keys of its own, none of these */
	ok(strstr(yaml.buf, "system-info:") &&
	   strstr(yaml.buf, "- stressor: vm"),
	   "the fixture is stress-ng's whole YAML");
	is_int(recipe_parse(r, "", 0, &v), -1, "no output at all");
	error_clear();
	strbuf_release(&yaml);
	strbuf_release(&bad);
}

static void test_fio(void)
{
	const struct recipe *r = recipe_find("fio-randread");
	struct strbuf json = STRBUF_INIT, bad = STRBUF_INIT;
	double v = 0;

	fixture(&json, "fio-randread.json");
	is_int(recipe_parse(r, json.buf, json.len, &v), 0,
	       "fio's real JSON parses");
	near(v, 1607495182.0 / 1048576, 1e-9, "read bw_bytes in MiB/s");
	strbuf_reset(&bad);
	strbuf_addstr(&bad, "note: both iodepth >= 1 and synchronous I/O "
		      "engine are selected\n");
	strbuf_addstr(&bad, json.buf);
	is_int(recipe_parse(r, bad.buf, bad.len, &v), 0,
	       "a note before the document is skipped");
	is_int(recipe_parse_fio_json(json.buf, json.len, "seqread", &v), -1,
	       "no such job");
	ok(strstr(error_last(), "no job 'seqread'") != NULL, "  says so: %s",
	   error_last());
	edit(&bad, json.buf, "\"error\" : 0", "\"error\" : 5");
	is_int(recipe_parse(r, bad.buf, bad.len, &v), -1, "a failed job");
	ok(strstr(error_last(), "failed (error 5)") != NULL, "  says so: %s",
	   error_last());
	edit(&bad, json.buf, "\"bw_bytes\" : 1607495182", "\"bw_bytes\" : 0");
	is_int(recipe_parse(r, bad.buf, bad.len, &v), -1, "read nothing");
	strbuf_reset(&bad);
	strbuf_add(&bad, json.buf, json.len / 2);
	is_int(recipe_parse(r, bad.buf, bad.len, &v), -1,
	       "a document cut in half");
	ok(strstr(error_last(), "fio's JSON: line") != NULL, "  says where: %s",
	   error_last());
	is_int(recipe_parse(r, "fio: engine psync not loadable\n", 31, &v), -1,
	       "an error instead of a document");
	ok(strstr(error_last(), "no JSON document") != NULL, "  says so: %s",
	   error_last());
	error_clear();
	strbuf_release(&json);
	strbuf_release(&bad);
}

int main(void)
{
	if (!test_data_dir()) {
		printf("Bail out! no tests/data\n");
		return 1;
	}
	test_table();
	test_argv();
	test_stress_ng();
	test_fio();
	return done_testing();
}
