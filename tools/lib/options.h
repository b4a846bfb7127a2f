/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_OPTIONS_H
#define RESPIN_OPTIONS_H

/*
 * A small command-line option parser in the manner of git's
 * parse-options: each command describes its options in a table ending
 * with OPT_END(), and options_parse() fills the variables and returns
 * the remaining arguments.  "--help" and "-h" print the usage built
 * from the table.
 */
enum option_type {
	OPTION_END,
	OPTION_BOOL,		/* int *: set to 1, --no-NAME sets 0 */
	OPTION_STRING,		/* const char **: takes a value */
	OPTION_INT,		/* int *: takes a decimal value */
	OPTION_GROUP,		/* a heading in the help */
};

struct option {
	enum option_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;
	const char *help;
};

#define OPT_BOOL(s, l, v, h)      { OPTION_BOOL, (s), (l), (v), NULL, (h) }
#define OPT_STRING(s, l, v, a, h) { OPTION_STRING, (s), (l), (v), (a), (h) }
#define OPT_INT(s, l, v, a, h)    { OPTION_INT, (s), (l), (v), (a), (h) }
#define OPT_GROUP(h)              { OPTION_GROUP, 0, NULL, NULL, NULL, (h) }
#define OPT_END()                 { OPTION_END, 0, NULL, NULL, NULL, NULL }

/*
 * Parses argv[1..argc-1] (argv[0] is the command name).  Arguments that
 * are not options are moved to the front of argv; their count is
 * returned.  Returns -RESPIN_EXIT_USAGE after printing a message on a
 * bad option, and -1 after printing the help on --help (the caller
 * exits 0 then).  "--" ends the options.
 */
int options_parse(int argc, const char **argv, const struct option *opts,
		  const char *const *usage);
/* Prints the usage lines and option table to stderr (to_stdout: stdout). */
void options_usage(const struct option *opts, const char *const *usage,
		   int to_stdout);

#define OPTIONS_HELP (-1)

#endif
