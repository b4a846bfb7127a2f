// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * synthbench: a synthetic benchmark with a known effect and noise, for
 * the statistical trials of respin check (tests/e2e/t0630, make bench).
 *
 *	synthbench METRIC SEED NOISE [DRIFT]
 *
 * run by a bench check in the series' worktree.  It prints
 *
 *	respin-metric: METRIC VALUE
 *
 * with VALUE = 100 (1 + E / 100) + DRIFT k + NOISE g, where E is the
 * number in the tree's file "synth-effect" (0 when there is none: the
 * effect is what the patch puts there; $SYNTH_EFFECT names another
 * file, such as one in the tree's build), k how many runs came before
 * this one (any tree: a machine that drifts), and g a standard normal
 * deviate drawn from SEED, the tree ($RESPIN_TREE) and how many runs
 * that tree had before: the same three give the same value, whatever
 * order the runs come in.  Its counters live in $SYNTH_STATE (a
 * directory), which also gets a line "RESPIN_PATCH value" in "order"
 * for each run.  Exits 0, or 2 on bad use.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t hash_str(uint64_t h, const char *s)
{
	while (*s)
		h = mix(h ^ (unsigned char)*s++);
	return h;
}

/* (0, 1) from a state; steps it. */
static double uniform(uint64_t *s)
{
	*s = mix(*s);
	return ((*s >> 11) + 0.5) / 9007199254740992.0;
}

/* Reads a counter file (0 when absent) and writes it one up. */
static long bump(const char *dir, const char *name)
{
	char path[4096];
	long n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = 0;
		fclose(f);
	}
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "synthbench: cannot write %s: %s\n", path,
			strerror(errno));
		exit(2);
	}
	fprintf(f, "%ld\n", n + 1);
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	const char *state = getenv("SYNTH_STATE");
	const char *tree = getenv("RESPIN_TREE");
	const char *patch = getenv("RESPIN_PATCH");
	double effect = 0, noise, drift = 0, g, value;
	char name[256];
	uint64_t s;
	long nth, global;
	FILE *f;

	if (argc < 4 || argc > 5 || !state || !tree) {
		fprintf(stderr, "usage: SYNTH_STATE=DIR synthbench METRIC "
			"SEED NOISE [DRIFT] (in a respin check, which sets "
			"RESPIN_TREE)\n");
		return 2;
	}
	noise = atof(argv[3]);
	if (argc == 5)
		drift = atof(argv[4]);
	f = fopen(getenv("SYNTH_EFFECT") ? getenv("SYNTH_EFFECT") :
		  "synth-effect", "r");
	if (f) {
		if (fscanf(f, "%lf", &effect) != 1)
			effect = 0;
		fclose(f);
	}
	snprintf(name, sizeof(name), "n.%s", tree);
	nth = bump(state, name);
	global = bump(state, "runs");
	s = hash_str(mix(strtoull(argv[2], NULL, 10)), tree);
	s = mix(s ^ (uint64_t)nth);
	/* Box-Muller: one deviate from two uniforms */
	g = sqrt(-2 * log(uniform(&s))) * cos(2 * M_PI * uniform(&s));
	value = 100 * (1 + effect / 100) + drift * global + noise * g;
	snprintf(name, sizeof(name), "%s/order", state);
	f = fopen(name, "a");
	if (f) {
		fprintf(f, "%s %.6f\n", patch ? patch : "?", value);
		fclose(f);
	}
	printf("respin-metric: %s %.6f\n", argv[1], value);
	return 0;
}
