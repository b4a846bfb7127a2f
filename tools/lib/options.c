// SPDX-License-Identifier: GPL-2.0-or-later
#include "options.h"
#include "error.h"
#include "strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void options_usage(const struct option *opts, const char *const *usage,
		   int to_stdout)
{
	FILE *out = to_stdout ? stdout : stderr;
	const struct option *o;
	int i;

	for (i = 0; usage[i]; i++)
		fprintf(out, "%s%s\n", i ? "   or: " : "usage: ", usage[i]);
	fputc('\n', out);
	for (o = opts; o->type != OPTION_END; o++) {
		struct strbuf sb = STRBUF_INIT;

		if (o->type == OPTION_GROUP) {
			fprintf(out, "\n%s\n", o->help);
			continue;
		}
		strbuf_addstr(&sb, "    ");
		if (o->short_name)
			strbuf_addf(&sb, "-%c%s", o->short_name,
				    o->long_name ? ", " : "");
		if (o->long_name)
			strbuf_addf(&sb, "--%s", o->long_name);
		if (o->argh)
			strbuf_addf(&sb, " <%s>", o->argh);
		if (sb.len >= 30) {
			fprintf(out, "%s\n%30s%s\n", sb.buf, "", o->help);
		} else {
			fprintf(out, "%-30s%s\n", sb.buf, o->help);
		}
		strbuf_release(&sb);
	}
	fprintf(out, "    %-26s%s\n", "-h, --help", "show this help");
}

static int set_value(const struct option *o, const char *val, int negated)
{
	char *end;
	long n;

	switch (o->type) {
	case OPTION_BOOL:
		*(int *)o->value = !negated;
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = val;
		return 0;
	case OPTION_INT:
		errno = 0;
		n = strtol(val, &end, 10);
		if (errno || end == val || *end || n < -2147483647L ||
		    n > 2147483647L) {
			fprintf(stderr, "error: option '%s' expects a number, "
				"not '%s'\n", o->long_name, val);
			return -1;
		}
		*(int *)o->value = (int)n;
		return 0;
	default:
		return -1;
	}
}

static int takes_value(const struct option *o)
{
	return o->type == OPTION_STRING || o->type == OPTION_INT;
}

static int parse_long(const char *arg, int *i, int argc, const char **argv,
		      const struct option *opts)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct option *o;
	int negated = 0;

	if (len > 3 && !strncmp(arg, "no-", 3)) {
		for (o = opts; o->type != OPTION_END; o++)
			if (o->type == OPTION_BOOL && o->long_name &&
			    strlen(o->long_name) == len - 3 &&
			    !strncmp(o->long_name, arg + 3, len - 3))
				break;
		if (o->type != OPTION_END) {
			if (eq)
				goto no_value;
			return set_value(o, NULL, 1);
		}
	}
	for (o = opts; o->type != OPTION_END; o++)
		if (o->long_name && strlen(o->long_name) == len &&
		    !strncmp(o->long_name, arg, len))
			break;
	if (o->type == OPTION_END) {
		fprintf(stderr, "error: unknown option '--%.*s'\n", (int)len, arg);
		return -1;
	}
	if (!takes_value(o)) {
		if (eq)
			goto no_value;
		return set_value(o, NULL, negated);
	}
	if (eq)
		return set_value(o, eq + 1, 0);
	if (*i + 1 >= argc) {
		fprintf(stderr, "error: option '--%s' requires a value\n",
			o->long_name);
		return -1;
	}
	return set_value(o, argv[++*i], 0);
no_value:
	fprintf(stderr, "error: option '--%.*s' takes no value\n", (int)len, arg);
	return -1;
}

static int parse_short(const char *arg, int *i, int argc, const char **argv,
		       const struct option *opts)
{
	for (; *arg; arg++) {
		const struct option *o;

		for (o = opts; o->type != OPTION_END; o++)
			if (o->short_name == *arg)
				break;
		if (o->type == OPTION_END) {
			fprintf(stderr, "error: unknown switch '%c'\n", *arg);
			return -1;
		}
		if (!takes_value(o)) {
			set_value(o, NULL, 0);
			continue;
		}
		if (arg[1])
			return set_value(o, arg + 1, 0);
		if (*i + 1 >= argc) {
			fprintf(stderr, "error: switch '%c' requires a value\n",
				*arg);
			return -1;
		}
		return set_value(o, argv[++*i], 0);
	}
	return 0;
}

int options_parse(int argc, const char **argv, const struct option *opts,
		  const char *const *usage)
{
	int i, nr = 0, only_args = 0;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		int r;

		if (only_args || arg[0] != '-' || !arg[1]) {
			argv[nr++] = arg;
			continue;
		}
		if (!strcmp(arg, "--")) {
			only_args = 1;
			continue;
		}
		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			options_usage(opts, usage, 1);
			return OPTIONS_HELP;
		}
		if (arg[1] == '-')
			r = parse_long(arg + 2, &i, argc, argv, opts);
		else
			r = parse_short(arg + 1, &i, argc, argv, opts);
		if (r < 0) {
			options_usage(opts, usage, 0);
			return -RESPIN_EXIT_USAGE;
		}
	}
	argv[nr] = NULL;
	return nr;
}
