// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The built-in bench recipes: what each runs, and how its value is read
 * from the tool's own output (see ci/recipe.h).
 */
#include "ci/recipe.h"
#include "tools/lib/error.h"
#include "tools/lib/jsonread.h"

#include <json-c/json.h>
#include "tools/lib/strbuf.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const struct recipe recipes[] = {
	{
		.name = "stress-ng-vm",
		.metric = "bogo-ops/s",
		.tool = "stress-ng",
		.package = "stress-ng",
		.seconds = 3,
		.what = "stress-ng --vm 1 --vm-bytes 64m for 3 s: one worker "
			"mapping, touching and unmapping 64 MiB (page faults, "
			"allocation, reclaim of its own pages); the bogo ops "
			"a second of real time",
		.format = 1,
	},
	{
		.name = "fio-randread",
		.metric = "MiB/s",
		.tool = "fio",
		.package = "fio",
		.seconds = 3,
		.what = "fio random 4 KiB reads (psync, one job) of a 128 MiB "
			"file on a tmpfs for 3 s: the page cache and shmem "
			"read path; the MiB read a second",
		.format = 1,
	},
};

#define NR_RECIPES (sizeof(recipes) / sizeof(*recipes))

const struct recipe *recipe_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < NR_RECIPES; i++)
		if (!strcmp(recipes[i].name, name))
			return &recipes[i];
	return NULL;
}

void recipe_names(struct strbuf *out)
{
	size_t i;

	for (i = 0; i < NR_RECIPES; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", recipes[i].name);
}

void recipe_output(const struct recipe *r, const char *dir,
		   struct strbuf *out)
{
	strbuf_addf(out, "%s/%s", dir, !strcmp(r->tool, "fio") ?
		    "fio.json" : "stress-ng.yaml");
}

/* argv: a growing NULL-ended array of strings of its own. */
struct args {
	char **v;
	size_t nr, alloc;
};

static void push(struct args *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void push(struct args *a, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(a->v, a->nr + 1, a->alloc);
	a->v[a->nr++] = strbuf_detach(&sb, NULL);
	a->v[a->nr] = NULL;
}

char **recipe_argv(const struct recipe *r, const char *dir)
{
	struct strbuf out = STRBUF_INIT;
	struct args a = { NULL, 0, 0 };

	recipe_output(r, dir, &out);
	if (!strcmp(r->name, "stress-ng-vm")) {
		push(&a, "stress-ng");
		push(&a, "--vm");
		push(&a, "1");
		push(&a, "--vm-bytes");
		push(&a, "64m");
		push(&a, "--timeout");
		push(&a, "%ds", r->seconds);
		push(&a, "--metrics-brief");
		push(&a, "--temp-path");
		push(&a, "%s", dir);
		push(&a, "--yaml");
		push(&a, "%s", out.buf);
	} else {
		push(&a, "fio");
		push(&a, "--name=randread");
		push(&a, "--filename=%s/fio-randread.data", dir);
		push(&a, "--size=128m");
		push(&a, "--rw=randread");
		push(&a, "--bs=4k");
		push(&a, "--ioengine=psync");
		push(&a, "--runtime=%d", r->seconds);
		push(&a, "--time_based");
		push(&a, "--output-format=json");
		push(&a, "--output=%s", out.buf);
	}
	strbuf_release(&out);
	return a.v;
}

void recipe_argv_free(char **argv)
{
	size_t i;

	for (i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

int recipe_parse(const struct recipe *r, const char *text, size_t len,
		 double *value)
{
	if (!strcmp(r->name, "stress-ng-vm"))
		return recipe_parse_stress_ng_yaml(text, len, "vm", value);
	return recipe_parse_fio_json(text, len, "randread", value);
}

/* A line of text: [*p, eol) and *p moved past it; 0 at the end. */
static int next_line(const char **p, const char *end, const char **line,
		     size_t *n)
{
	const char *eol;

	if (*p >= end)
		return 0;
	eol = memchr(*p, '\n', (size_t)(end - *p));
	if (!eol)
		eol = end;
	*line = *p;
	*n = (size_t)(eol - *p);
	*p = eol < end ? eol + 1 : end;
	return 1;
}

/* "KEY: VALUE" after the indent (and a "- "): the value, or NULL. */
static const char *yaml_value(const char *line, size_t n, const char *key,
			      size_t *vlen)
{
	size_t k = strlen(key), i = 0;

	while (i < n && line[i] == ' ')
		i++;
	if (i + 1 < n && line[i] == '-' && line[i + 1] == ' ')
		i += 2;
	if (n - i <= k || memcmp(line + i, key, k) || line[i + k] != ':')
		return NULL;
	i += k + 1;
	while (i < n && line[i] == ' ')
		i++;
	*vlen = n - i;
	return line + i;
}

static int positive(const char *s, size_t n, double *out)
{
	char buf[64], *end;

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*out = strtod(buf, &end);
	while (*end == ' ' || *end == '\r')
		end++;
	return end != buf && !*end ? 0 : -1;
}

int recipe_parse_stress_ng_yaml(const char *text, size_t len,
				const char *stressor, double *value)
{
	static const char key[] = "bogo-ops-per-second-real-time";
	const char *p = text, *end = text + len, *line, *v;
	size_t n, vlen;
	int in_metrics = 0, ours = 0;

	while (next_line(&p, end, &line, &n)) {
		if (n && line[0] != ' ' && line[0] != '-') {
			/* a top-level key: "metrics:" or another */
			in_metrics = n >= 8 && !memcmp(line, "metrics:", 8);
			ours = 0;
			continue;
		}
		if (!in_metrics)
			continue;
		v = yaml_value(line, n, "stressor", &vlen);
		if (v) {
			ours = vlen == strlen(stressor) &&
			       !memcmp(v, stressor, vlen);
			continue;
		}
		v = ours ? yaml_value(line, n, key, &vlen) : NULL;
		if (!v)
			continue;
		if (positive(v, vlen, value) < 0)
			return error("stress-ng's YAML: %s of the %s stressor "
				     "is not a number: '%.*s'", key, stressor,
				     (int)(vlen > 40 ? 40 : vlen), v);
		if (!(*value > 0))
			return error("stress-ng's YAML: the %s stressor did no "
				     "bogo ops (%s: %g)", stressor, key,
				     *value);
		return 0;
	}
	return error("stress-ng's YAML has no %s of the %s stressor under "
		     "metrics:", key, stressor);
}

/* A number member of o (an integer or a double), or -1 when none. */
static int number_of(struct json_object *o, const char *key, double *out)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v))
		return -1;
	if (!json_object_is_type(v, json_type_double) &&
	    !json_object_is_type(v, json_type_int))
		return -1;
	*out = json_object_get_double(v);
	return 0;
}

int recipe_parse_fio_json(const char *text, size_t len, const char *jobname,
			  double *mibps)
{
	const char *start = text, *end = text + len;
	struct json_object *doc = NULL, *jobs = NULL;
	size_t i, n;
	int r;

	/* fio may put notes before the document: it starts at a '{' line */
	while (start < end && *start != '{') {
		const char *eol = memchr(start, '\n', (size_t)(end - start));

		start = eol ? eol + 1 : end;
	}
	if (start == end)
		return error("fio's output has no JSON document");
	r = json_read(start, (size_t)(end - start), &doc);
	if (r < 0)
		return error("fio's JSON: %s", error_last());
	r = 1;		/* no such job, or no read.bw_bytes */
	if (!json_object_object_get_ex(doc, "jobs", &jobs) ||
	    !json_object_is_type(jobs, json_type_array))
		jobs = NULL;
	n = jobs ? json_object_array_length(jobs) : 0;
	for (i = 0; i < n; i++) {
		struct json_object *job = json_object_array_get_idx(jobs, i);
		struct json_object *read = NULL;
		const char *name = json_read_string(job, "jobname");
		double err = 0, bw;

		if (!name || strcmp(name, jobname))
			continue;
		if (!number_of(job, "error", &err) && err != 0) {
			r = error("fio's job '%s' failed (error %g)", jobname,
				  err);
			break;
		}
		if (!json_object_object_get_ex(job, "read", &read) ||
		    number_of(read, "bw_bytes", &bw) < 0)
			break;
		if (!(bw > 0)) {
			r = error("fio's job '%s' read nothing (bw_bytes %g)",
				  jobname, bw);
			break;
		}
		*mibps = bw / (1024.0 * 1024.0);
		r = 0;
		break;
	}
	json_read_free(doc);
	if (r > 0)
		r = error("fio's JSON has no job '%s' with read.bw_bytes",
			  jobname);
	return r;
}
