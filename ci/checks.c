// SPDX-License-Identifier: GPL-2.0-or-later
#include "ci/checks.h"
#include "ci/artifacts.h"
#include "ci/kind.h"
#include "ci/kselftest.h"
#include "ci/preset.h"
#include "ci/recipe.h"
#include "ci/stats.h"
#include "ci/vmstat.h"
#include "tools/lib/error.h"
#include "tools/lib/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const kind_names[] = {
	"build", "lint", "ktap", "bench", "command",
	"sparse", "w1", "kdoc", "coccicheck", "kselftest",
};

unsigned int check_stats_flags(const struct check *c)
{
	return (c->higher ? STATS_HIGHER_IS_BETTER : 0) |
	       (c->harmonic ? STATS_HARMONIC : 0);
}

void check_stats_plan(const struct check *c, struct stats_plan *out)
{
	stats_plan_init(out, check_stats_flags(c), c->min_runs, c->max_runs,
			c->threshold_pct);
}

void check_describe(const struct check *c, struct strbuf *out)
{
	const struct check_kind_ops *ops = check_kind_ops(c->kind);

	if (ops->describe)
		ops->describe(c, out);
	else if (c->recipe)
		strbuf_addf(out, "recipe %s", c->recipe);
	else
		strbuf_addstr(out, c->command ? c->command : "(no command)");
}

void check_describe_json(const struct check *c, struct json *j)
{
	const struct check_kind_ops *ops = check_kind_ops(c->kind);

	if (ops->describe_json)
		ops->describe_json(c, j);
}

const char *check_kind_name(enum check_kind k)
{
	return kind_names[k];
}

int check_kind_static(enum check_kind k)
{
	return k == CHECK_SPARSE || k == CHECK_W1 || k == CHECK_KDOC ||
	       k == CHECK_COCCI;
}

static struct check *check_add(struct check_list *l, const char *name)
{
	struct check *c;

	ALLOC_GROW(l->items, l->nr, l->alloc);
	c = &l->items[l->nr++];
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	c->higher = 1;
	c->min_runs = 5;
	c->max_runs = 30;
	c->threshold_pct = STATS_THRESHOLD_PCT;
	return c;
}

struct check *checks_find(struct check_list *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (l->items[i].name && !strcmp(l->items[i].name, name))
			return &l->items[i];
	return NULL;
}

static void check_free_fields(struct check *c)
{
	free(c->vmstat);
	free(c->recipe);
	free(c->kconfig);
	free(c->name);
	free(c->command);
	free(c->metric);
	free(c->pattern);
	free(c->artifacts);
	free(c->partition);
	free(c->constraint);
	free(c->targets);
	free(c->append);
	free(c->runner);
	free(c->tests);
	free(c->memory);
}

void checks_release(struct check_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		check_free_fields(&l->items[i]);
	free(l->items);
	if (l->builder)
		check_free_fields(l->builder);
	free(l->builder);
	memset(l, 0, sizeof(*l));
}

static void set_str(char **field, const char *v)
{
	free(*field);
	*field = xstrdup(v);
}

/* "vm net/forwarding": names kselftest_target_valid() takes. */
static int targets_check(const char *key, const char *v)
{
	struct strbuf name = STRBUF_INIT;
	const char *p = v;
	int n = 0, r = 0;

	while (!r && strbuf_next_word(&name, &p, " \t,")) {
		if (!kselftest_target_valid(name.buf))
			r = error("%s: '%s' is not a directory name under "
				  "tools/testing/selftests", key, name.buf);
		n++;
	}
	if (!r && !n)
		r = error("%s: no target (like 'vm')", key);
	strbuf_release(&name);
	return r;
}

/* true/yes/on/1 1, false/no/off/0 0, else -1. */
static int bool_value(const char *v)
{
	if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") ||
	    !strcasecmp(v, "on") || !strcmp(v, "1"))
		return 1;
	if (!strcasecmp(v, "false") || !strcasecmp(v, "no") ||
	    !strcasecmp(v, "off") || !strcmp(v, "0"))
		return 0;
	return -1;
}

struct load_state {
	struct check_list *l;
	int err;
	char **disabled;
	size_t nr_disabled, alloc_disabled;
};

/*
 * A setting of any kind (key, of the variable name): set, 1; not such a
 * key, 0; a bad value, an error naming the variable.
 */
static int set_general(struct check *c, const char *key, const char *v,
		       const char *name)
{
	if (!strcasecmp(key, "kind")) {
		size_t k;

		for (k = 0; k < sizeof(kind_names) / sizeof(*kind_names); k++)
			if (!strcmp(v, kind_names[k]))
				break;
		if (k == sizeof(kind_names) / sizeof(*kind_names))
			return error("%s: unknown kind '%s' (build, lint, "
				     "ktap, bench, command, sparse, w1, kdoc, "
				     "coccicheck or kselftest)", name, v);
		c->kind = (enum check_kind)k;
		c->builtin = 0;
	} else if (!strcasecmp(key, "command")) {
		set_str(&c->command, v);
		c->builtin = 0;
	} else if (!strcasecmp(key, "timeout")) {
		char *end;

		c->timeout = strtod(v, &end);
		if (end == v || *end || c->timeout < 0)
			return error("%s: '%s' is not a number of seconds",
				     name, v);
	} else if (!strcasecmp(key, "artifacts")) {
		int r = artifacts_check_list(name, v);

		if (r < 0)
			return r;
		set_str(&c->artifacts, v);
	} else if (!strcasecmp(key, "partition")) {
		set_str(&c->partition, v);
	} else if (!strcasecmp(key, "constraint")) {
		set_str(&c->constraint, v);
	} else if (!strcasecmp(key, "kconfig")) {
		if (strcmp(v, "current") && strcmp(v, "tiny-qemu"))
			return error("%s: '%s' is not current (your .config, "
				     "else tinyconfig) or tiny-qemu (a "
				     "tinyconfig that boots under QEMU, with "
				     "the options the series needs)",
				     name, v);
		set_str(&c->kconfig, v);
	} else if (!strcasecmp(key, "guest")) {
		if (!strcasecmp(v, "true") || !strcmp(v, "1") ||
		    !strcasecmp(v, "yes") || !strcasecmp(v, "on")) {
			c->guest = 1;
		} else if (!strcasecmp(v, "false") || !strcmp(v, "0") ||
			   !strcasecmp(v, "no") || !strcasecmp(v, "off")) {
			c->guest = 0;
		} else {
			return error("%s: '%s' is not true or false",
				     name, v);
		}
	} else if (!strcasecmp(key, "icount")) {
		char *end;
		long n = strtol(v, &end, 10);

		if (end == v || *end || n < 0 || n > 10)
			return error("%s: '%s' is not a shift from 0 to 10 (a "
				     "guest instruction is 2^SHIFT ns)", name, v);
		c->icount = (int)n + 1;
	} else {
		return 0;
	}
	return 1;
}

/*
 * A bench's setting (key, of the variable name): set, 1; not such a
 * key, 0; a bad value, an error naming the variable.
 */
static int set_bench(struct check *c, const char *key, const char *v,
		     const char *name)
{
	if (!strcasecmp(key, "metric")) {
		set_str(&c->metric, v);
	} else if (!strcasecmp(key, "pattern")) {
		set_str(&c->pattern, v);
	} else if (!strcasecmp(key, "higher")) {
		c->higher = !strcasecmp(v, "true") || !strcmp(v, "1") ||
			    !strcasecmp(v, "yes") || !strcasecmp(v, "on");
	} else if (!strcasecmp(key, "runs")) {
		int a, b;

		if (sscanf(v, "%d..%d", &a, &b) == 2 && a >= 1 && b >= a) {
			c->min_runs = a;
			c->max_runs = b;
		} else if (sscanf(v, "%d", &a) == 1 && a >= 1) {
			c->min_runs = c->max_runs = a;
		} else {
			return error("%s: '%s' is not MIN..MAX runs",
				     name, v);
		}
	} else if (!strcasecmp(key, "threshold")) {
		char *end;
		double t = strtod(v, &end);

		if (end != v && *end == '%')
			end++;
		if (end == v || *end || !(t > 0 && t <= 100))
			return error("%s: '%s' is not a percentage above 0 "
				     "and at most 100 (like 2 or 2.5%%)",
				     name, v);
		c->threshold_pct = t;
	} else if (!strcasecmp(key, "mean")) {
		if (strcasecmp(v, "harmonic") && strcasecmp(v, "arithmetic"))
			return error("%s: '%s' is not harmonic or "
				     "arithmetic", name, v);
		c->harmonic = !strcasecmp(v, "harmonic");
	} else if (!strcasecmp(key, "vmstat")) {
		int r = vmstat_globs_check(name, v);

		if (r < 0)
			return r;
		set_str(&c->vmstat, v);
	} else if (!strcasecmp(key, "recipe")) {
		if (!recipe_find(v)) {
			struct strbuf known = STRBUF_INIT;
			int r;

			recipe_names(&known);
			r = error("%s: '%s' is not a recipe (there are: %s)",
				  name, v, known.buf);
			strbuf_release(&known);
			return r;
		}
		set_str(&c->recipe, v);
	} else {
		return 0;
	}
	return 1;
}

/*
 * A kselftest setting (key, of the variable name): set, 1; not such a
 * key, 0; a bad value, an error naming the variable.
 */
static int set_kselftest(struct check *c, const char *key, const char *v,
			 const char *name)
{
	if (!strcasecmp(key, "targets")) {
		int r = targets_check(name, v);

		if (r < 0)
			return r;
		set_str(&c->targets, v);
	} else if (!strcasecmp(key, "tests")) {
		set_str(&c->tests, v);
	} else if (!strcasecmp(key, "memory")) {
		size_t k = strspn(v, "0123456789");

		if (!k || !(v[k] == '\0' || (strchr("KMGkmg", v[k]) &&
					       !v[k + 1])))
			return error("%s: '%s' is not a size like 1G or "
				     "512M", name, v);
		set_str(&c->memory, v);
	} else if (!strcasecmp(key, "smp") || !strcasecmp(key, "slowdown")) {
		char *end;
		long n = strtol(v, &end, 10);

		if (end == v || *end || n < 1 || n > 1000)
			return error("%s: '%s' is not a whole number from "
				     "1 to 1000", name, v);
		if (!strcasecmp(key, "smp"))
			c->smp = (int)n;
		else
			c->slowdown = (int)n;
	} else if (!strcasecmp(key, "initramfs")) {
		int b = bool_value(v);

		if (b < 0)
			return error("%s: '%s' is not true or false",
				     name, v);
		c->initramfs = b;
	} else if (!strcasecmp(key, "append")) {
		set_str(&c->append, v);
	} else if (!strcasecmp(key, "runner")) {
		set_str(&c->runner, v);
	} else {
		return 0;
	}
	return 1;
}

static int config_entry(const git_config_entry *e, void *data)
{
	struct load_state *st = data;
	const char *name = e->name + strlen("respin.check.");
	const char *dot = strrchr(name, '.');
	struct strbuf cname = STRBUF_INIT;
	struct check *c;
	const char *key, *v = e->value ? e->value : "";
	int r;

	if (!dot || dot == name)
		return 0;
	strbuf_add(&cname, name, (size_t)(dot - name));
	key = dot + 1;
	c = checks_find(st->l, cname.buf);
	if (!c)
		c = check_add(st->l, cname.buf);
	r = set_general(c, key, v, e->name);
	if (!r)
		r = set_bench(c, key, v, e->name);
	if (!r)
		r = set_kselftest(c, key, v, e->name);
	if (r < 0) {
		st->err = r;
		strbuf_release(&cname);
		return -1;
	}
	if (!r && !strcasecmp(key, "enabled")) {
		if (!strcasecmp(v, "false") || !strcmp(v, "0") ||
		    !strcasecmp(v, "no") || !strcasecmp(v, "off")) {
			ALLOC_GROW(st->disabled, st->nr_disabled,
				   st->alloc_disabled);
			st->disabled[st->nr_disabled++] = xstrdup(cname.buf);
		}
	}
	strbuf_release(&cname);
	return 0;
}

static void hash_check(struct check *c, const char *kernel)
{
	struct strbuf sb = STRBUF_INIT;
	git_oid oid;

	/*
	 * "format" changes when what respin records for a kind changes
	 * (2: warnings with paths relative to the tree), so older results
	 * are not mixed with newer ones.
	 */
	strbuf_addf(&sb, "format 2\nkind %s\ncommand %s\nmetric %s\npattern %s\n",
		    kind_names[c->kind], c->command ? c->command : "",
		    c->metric ? c->metric : "", c->pattern ? c->pattern : "");
	/* the kind's own settings that change what runs */
	if (check_kind_ops(c->kind)->definition)
		check_kind_ops(c->kind)->definition(c, &sb);
	/*
	 * In the guest it is another run (another kernel's warnings, and
	 * the command line it boots with): a line only when set.  (After
	 * the kind's lines: a kselftest check, whose lines came after it,
	 * never runs in the guest.)
	 */
	if (c->guest)
		strbuf_addf(&sb, "guest 1\nappend %s\n",
			    c->append ? c->append : "");
	if (c->guest && c->icount)
		strbuf_addf(&sb, "icount %d\n", c->icount - 1);
	/*
	 * What runs on or with the built tree (in its kernel, or reading
	 * its build directory) gives another result for another kernel:
	 * the build's definition is part of its own.
	 */
	if (kernel)
		strbuf_addf(&sb, "kernel %s\n", kernel);
	git_odb_hash(&oid, sb.buf, sb.len, GIT_OBJECT_BLOB);
	git_oid_tostr(c->hash, sizeof(c->hash), &oid);
	strbuf_release(&sb);
}

/* Every check's hash: the build's first, which the others may hold. */
static void hash_checks(struct check_list *l)
{
	const struct check *b = NULL;
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (check_is_builder(&l->items[i])) {
			hash_check(&l->items[i], NULL);
			if (!b)
				b = &l->items[i];
		}
	for (i = 0; i < l->nr; i++) {
		struct check *c = &l->items[i];

		if (!check_is_builder(c))
			hash_check(c, b && (check_needs(c) & KIND_NEEDS_BUILD) ?
				   b->hash : NULL);
	}
}

/*
 * A bench's recipe and vmstat settings, together: 0, or an error naming
 * the key.  A recipe sets the metric, that higher is better and that it
 * is a rate.
 */
static int bench_settings_check(struct check *c)
{
	const struct recipe *rc = c->recipe ? recipe_find(c->recipe) : NULL;
	const char *key = c->recipe ? "recipe" : "vmstat";

	if (!c->recipe && !c->vmstat)
		return 0;
	if (c->kind != CHECK_BENCH)
		return error("respin.check.%s.%s: only a bench check (kind = "
			     "bench) has it; '%s' is of kind %s", c->name, key,
			     c->name, kind_names[c->kind]);
	if (!rc)
		return 0;
	if (c->command)
		return error("respin.check.%s.recipe: '%s' has a command "
			     "too (respin.check.%s.command): give one of the "
			     "two", c->name, c->name, c->name);
	if (c->pattern || (c->metric && strcmp(c->metric, rc->metric)))
		return error("respin.check.%s.%s: the recipe %s gives the "
			     "metric '%s' itself: leave metric and pattern "
			     "out", c->name, c->pattern ? "pattern" : "metric",
			     rc->name, rc->metric);
	set_str(&c->metric, rc->metric);
	c->higher = 1;
	c->harmonic = 1;
	return 0;
}

/*
 * The preset's settings, before the user's: the checks they make or
 * change are marked as the preset's.
 */
static int apply_preset(git_config *cfg, const char *name,
			struct load_state *st)
{
	const char *own = NULL;
	const struct preset *p;
	size_t k;
	int r = 0;

	if (!name) {
		if (git_config_get_string(&own, cfg, "respin.check.preset") ||
		    !*own)
			return 0;	/* none */
		name = own;
	}
	p = preset_find(name);
	if (!p) {
		struct strbuf known = STRBUF_INIT;

		preset_names(&known);
		r = error_code(RESPIN_EUSAGE, "%s '%s': no such preset "
			       "(there are: %s)", own ? "respin.check.preset "
			       "is" : "--preset", name, known.buf);
		strbuf_release(&known);
		return r;
	}
	for (k = 0; k < p->nr && !r; k++) {
		git_config_entry e;
		const char *cname = p->settings[k].key + 13;
		struct strbuf n = STRBUF_INIT;
		struct check *c;

		memset(&e, 0, sizeof(e));
		e.name = p->settings[k].key;
		e.value = p->settings[k].value;
		r = config_entry(&e, st) < 0 ? st->err : 0;
		strbuf_add(&n, cname, strcspn(cname, "."));
		c = checks_find(st->l, n.buf);
		if (c)
			c->preset = p->name;	/* (static: it stays) */
		strbuf_release(&n);
	}
	return r;
}

int checks_preset_configured(git_repository *repo, const char *name)
{
	git_config *cfg = NULL;
	const char *own = NULL;
	int r;

	if (git_repository_config_snapshot(&cfg, repo) < 0)
		return 0;
	r = !git_config_get_string(&own, cfg, "respin.check.preset") &&
	    !strcmp(own, name);
	git_config_free(cfg);
	return r;
}

int checks_load(git_repository *repo, struct check_list *out)
{
	return checks_load_preset(repo, NULL, out);
}

int checks_load_preset(git_repository *repo, const char *preset,
		       struct check_list *out)
{
	struct load_state st = { out, 0, NULL, 0, 0 };
	git_config *cfg = NULL;
	struct check *c;
	size_t i;
	int r = 0;

	memset(out, 0, sizeof(*out));
	c = check_add(out, "checkpatch");
	c->kind = CHECK_LINT;
	c->builtin = 1;
	c->timeout = 300;
	c = check_add(out, "build");
	c->kind = CHECK_BUILD;
	c->builtin = 1;
	c->timeout = 3600;

	if (git_repository_config_snapshot(&cfg, repo) < 0)
		return error_git("cannot read git config");
	r = apply_preset(cfg, preset, &st);
	if (r < 0)
		goto out;
	{
		/*
		 * Walk every entry and pick ours: libgit2's regex matching
		 * (pcre2) leaks its match data on each call.
		 */
		git_config_iterator *it = NULL;
		git_config_entry *e;

		if (git_config_iterator_new(&it, cfg) < 0) {
			r = error_git("cannot read git config");
			goto out;
		}
		while (!(r = git_config_next(&e, it))) {
			if (strncmp(e->name, "respin.check.", 13) ||
			    !strchr(e->name + 13, '.'))
				continue;
			if (config_entry(e, &st) < 0)
				break;
		}
		git_config_iterator_free(it);
		if (st.err) {
			r = st.err;
			goto out;
		}
		if (r != GIT_ITEROVER) {
			r = error_git("cannot read git config");
			goto out;
		}
		r = 0;
	}
	for (i = 0; i < st.nr_disabled; i++) {
		struct check *d = checks_find(out, st.disabled[i]);

		if (d) {
			size_t k = (size_t)(d - out->items);

			check_free_fields(d);
			memmove(d, d + 1, (out->nr - k - 1) * sizeof(*d));
			out->nr--;
		}
	}
	for (i = 0; i < out->nr; i++) {
		c = &out->items[i];
		r = bench_settings_check(c);
		if (!r && check_kind_ops(c->kind)->settle)
			r = check_kind_ops(c->kind)->settle(c);
		if (r < 0)
			goto out;
		/* the static kinds and kselftest have a command each */
		if (!c->command && !c->builtin && !c->recipe &&
		    !(check_kind_ops(c->kind)->needs & KIND_OWN_COMMAND)) {
			r = error("check '%s' has no command: set "
				  "respin.check.%s.command", c->name, c->name);
			goto out;
		}
		if (c->guest &&
		    !(check_kind_ops(c->kind)->needs & KIND_IN_GUEST)) {
			r = error("respin.check.%s.guest: only command, ktap "
				  "and bench checks run in the guest ('%s' is "
				  "a %s check)", c->name, c->name,
				  check_kind_name(c->kind));
			goto out;
		}
		if (c->icount && !c->guest) {
			r = error("respin.check.%s.icount: the guest's clock; "
				  "'%s' does not run in the guest (set "
				  "respin.check.%s.guest = true)", c->name,
				  c->name, c->name);
			goto out;
		}
		if (!c->timeout)
			c->timeout = check_kind_ops(c->kind)->timeout ?
				     check_kind_ops(c->kind)->timeout : 600;
	}
	hash_checks(out);
out:
	for (i = 0; i < st.nr_disabled; i++)
		free(st.disabled[i]);
	free(st.disabled);
	git_config_free(cfg);
	if (r < 0)
		checks_release(out);
	return r;
}

/* Calls fn for each name in "a,b,c". */
static int each_name(const char *list, int (*fn)(const char *, void *),
		     void *data)
{
	struct strbuf name = STRBUF_INIT;
	const char *p = list;
	int r = 0;

	while (!r && strbuf_next_word(&name, &p, ","))
		r = fn(name.buf, data);
	strbuf_release(&name);
	return r;
}

static int name_known(const char *name, void *data)
{
	struct check_list *l = data;
	struct strbuf have = STRBUF_INIT;
	size_t i;

	if (checks_find(l, name))
		return 0;
	for (i = 0; i < l->nr; i++)
		strbuf_addf(&have, "%s%s", i ? ", " : "", l->items[i].name);
	error_code(RESPIN_EUSAGE, "no check named '%s' (there are: %s)", name,
		   have.buf);
	strbuf_release(&have);
	return RESPIN_EUSAGE;
}

struct filter_state {
	struct check_list *from, kept;
};

static int move_check(const char *name, void *data)
{
	struct filter_state *st = data;
	struct check *c = checks_find(st->from, name);

	if (!c)		/* named twice: moved already */
		return 0;
	ALLOC_GROW(st->kept.items, st->kept.nr, st->kept.alloc);
	st->kept.items[st->kept.nr++] = *c;
	memset(c, 0, sizeof(*c));
	return 0;
}

int checks_filter(struct check_list *l, const char *only)
{
	struct filter_state st = { l, { 0 } };
	int r = each_name(only, name_known, l);
	size_t i;

	if (r < 0)
		return r;
	each_name(only, move_check, &st);
	for (i = 0; i < l->nr && !l->builder; i++)
		if (l->items[i].name && check_is_builder(&l->items[i])) {
			st.kept.builder = xmalloc(sizeof(*st.kept.builder));
			*st.kept.builder = l->items[i];
			memset(&l->items[i], 0, sizeof(l->items[i]));
			break;
		}
	if (l->builder) {
		st.kept.builder = l->builder;
		l->builder = NULL;
	}
	checks_release(l);
	*l = st.kept;
	return 0;
}
