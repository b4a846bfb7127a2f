// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel splats in a kernel log, as stable keys (see ci/splat.h).
 */
#include "ci/splat.h"

#include <ctype.h>
#include <string.h>

/* How far after its first line a splat's RIP or call trace may be. */
#define SPLAT_LINES 120

static const char *const starts[] = {
	"WARNING:", "BUG:", "kernel BUG at", "KASAN:", "UBSAN:", "Oops",
	"general protection fault",
};

/*
 * Frames of the reporting machinery, not where it happened: names
 * starting so are skipped in a call trace.
 */
static const char *const machinery[] = {
	"dump_stack", "show_stack", "show_trace", "print_", "__print_",
	"__warn", "warn_", "report_", "__report", "kasan_", "__kasan",
	"ubsan_", "__ubsan", "check_", "__check", "validate_chain",
	"lock_acquire", "__lock_acquire", "lockdep_", "__lockdep", "_printk",
	"printk", "panic", "die", "oops_", "__die", "do_trap", "do_error_trap",
	"handle_bug", "exc_", "asm_exc_", "fixup_", "__bfs", "bfs_",
	"mark_lock", "debug_", "warn_bogus", "__might", "might_",
	/* the lock a lockdep splat is about was taken by its caller */
	"down_read", "down_write", "mutex_lock", "__mutex_lock", "_raw_",
	"rwsem_", "rt_mutex",
};

static int starts_with(const char *s, size_t n, const char *prefix)
{
	size_t p = strlen(prefix);

	return n >= p && !memcmp(s, prefix, p);
}

/* The line without its log prefix: "[    1.234567] ", "[T57] ". */
static const char *strip_prefix(const char *s, size_t *n)
{
	const char *end = s + *n;

	for (;;) {
		const char *p = s;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p < end && *p == '[') {
			const char *q = p + 1;

			while (q < end && (*q == ' ' || isdigit((unsigned char)*q) ||
					   *q == '.' || *q == 'T' || *q == 'C'))
				q++;
			if (q < end && *q == ']' && q > p + 1) {
				s = q + 1;
				continue;
			}
		}
		s = p;
		break;
	}
	*n = (size_t)(end - s);
	return s;
}

static int is_start(const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < sizeof(starts) / sizeof(*starts); k++)
		if (starts_with(s, n, starts[k]))
			return 1;
	return 0;
}

static int is_end(const char *s, size_t n)
{
	return n >= 9 && memmem(s, n, "end trace", 9) != NULL;
}

static int hexdigits(const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (!isxdigit((unsigned char)s[k]))
			return 0;
	return n > 0;
}

/* A symbol: "func+0x1d/0x30" as "func" (n its length), or 0. */
static size_t symbol_len(const char *s, size_t n)
{
	const char *plus = memchr(s, '+', n);
	size_t k;

	if (!plus || plus == s || n - (size_t)(plus - s) < 4 ||
	    strncmp(plus + 1, "0x", 2))
		return 0;
	for (k = 0; k < (size_t)(plus - s); k++)
		if (!isalnum((unsigned char)s[k]) && s[k] != '_' && s[k] != '.')
			return 0;
	return (size_t)(plus - s);
}

/* One word of a first line, as the key has it (may be nothing). */
static void key_word(const char *w, size_t n, struct strbuf *out)
{
	size_t sym = symbol_len(w, n), k;
	const char *colon;

	if (sym) {
		strbuf_add(out, w, sym);
		return;
	}
	/* addresses: 0x..., long hex, and those with a colon after */
	if (n && w[n - 1] == ':' && (hexdigits(w, n - 1) ||
				     (n > 3 && !strncmp(w, "0x", 2))))
		return;
	if ((n > 2 && !strncmp(w, "0x", 2)) || (n >= 8 && hexdigits(w, n)))
		return;
	/* "mm/x.c:123" and "mm/x.c:123!": no line number */
	colon = memrchr(w, ':', n);
	if (colon && colon > w) {
		const char *d = colon + 1, *end = w + n;

		for (k = 0; d + k < end && isdigit((unsigned char)d[k]); k++)
			;
		if (k && (d + k == end || !isalnum((unsigned char)d[k]))) {
			strbuf_add(out, w, (size_t)(colon - w));
			strbuf_add(out, d + k, (size_t)(end - d - k));
			return;
		}
	}
	strbuf_add(out, w, n);
}

void splat_line_key(const char *line, size_t len, struct strbuf *out)
{
	const char *p, *end;
	size_t start = out->len;

	p = strip_prefix(line, &len);
	end = p + len;
	while (p < end) {
		const char *w;
		size_t n, before;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		w = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		n = (size_t)(p - w);
		if (!n)
			break;
		/* "[#1] PREEMPT SMP": the rest is the kernel's build */
		if (n >= 3 && w[0] == '[' && w[1] == '#')
			break;
		/* "CPU: 0", "PID: 57", "Comm: cat": which one, not what */
		if ((n == 4 && (!memcmp(w, "CPU:", 4) || !memcmp(w, "PID:", 4))) ||
		    (n == 5 && !memcmp(w, "Comm:", 5))) {
			while (p < end && *p == ' ')
				p++;
			while (p < end && *p != ' ' && *p != '\t')
				p++;
			continue;
		}
		before = out->len;
		if (before > start)
			strbuf_addch(out, ' ');
		key_word(w, n, out);
		if (out->len == before + (before > start))
			strbuf_setlen(out, before);
	}
	/* no dangling "address:" or "," */
	while (out->len > start && strchr(":,; ", out->buf[out->len - 1]))
		strbuf_setlen(out, out->len - 1);
}

static int is_machinery(const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < sizeof(machinery) / sizeof(*machinery); k++)
		if (starts_with(s, n, machinery[k]))
			return 1;
	return 0;
}

/*
 * The function of the splat whose lines follow: "RIP: 0010:func+0x..",
 * else the first frame of "Call Trace:" that is not machinery.  Into
 * fn; the lines are [p, end).
 */
static void splat_function(const char *p, const char *end,
			   struct strbuf *fn)
{
	struct strbuf frame = STRBUF_INIT;
	int lines = 0, in_trace = 0;

	while (p < end && lines++ < SPLAT_LINES) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		const char *s = strip_prefix(p, &n);
		const char *rip;

		p = nl ? nl + 1 : end;
		if (is_end(s, n) || (lines > 1 && is_start(s, n) &&
				     !starts_with(s, n, "Oops")))
			break;
		rip = n > 4 ? memmem(s, n, "RIP: ", 5) : NULL;
		if (rip) {
			const char *q = rip + 5, *e = s + n;
			size_t sym;

			/* "0010:" the code segment */
			while (q < e && *q != ':' && *q != ' ')
				q++;
			if (q < e && *q == ':')
				q++;
			sym = symbol_len(q, (size_t)(e - q));
			if (sym) {
				strbuf_reset(fn);
				strbuf_add(fn, q, sym);
				break;
			}
			continue;
		}
		if (starts_with(s, n, "Call Trace:")) {
			in_trace = 1;
			continue;
		}
		if (in_trace && !frame.len && n && *s != '<' &&
		    !starts_with(s, n, "? ")) {
			size_t sym = symbol_len(s, n);

			if (sym && !is_machinery(s, sym))
				strbuf_add(&frame, s, sym);
		}
	}
	if (!fn->len && frame.len)
		strbuf_add(fn, frame.buf, frame.len);
	strbuf_release(&frame);
}

/* Whether key has word as a whole word. */
static int has_word(const char *key, const char *word, size_t n)
{
	const char *p = key;

	while ((p = strstr(p, word))) {
		if ((p == key || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return 1;
		p += n;
	}
	return 0;
}

void splat_scan(const char *log, size_t len, struct warning_set *out)
{
	const char *p = log, *end = log + len;
	struct strbuf key = STRBUF_INIT, fn = STRBUF_INIT;
	int since_start = -1;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		const char *s = strip_prefix(p, &n);
		const char *next = nl ? nl + 1 : end;

		if (since_start >= 0)
			since_start++;
		p = next;
		if (!is_start(s, n))
			continue;
		/* "Oops: 0002 [#1]" a few lines after a BUG: is the same one */
		if (starts_with(s, n, "Oops") && since_start >= 0 &&
		    since_start <= 6)
			continue;
		since_start = 0;
		strbuf_reset(&key);
		strbuf_reset(&fn);
		splat_line_key(s, n, &key);
		splat_function(next, end, &fn);
		if (fn.len && !has_word(key.buf, fn.buf, fn.len))
			strbuf_addf(&key, " (in %s)", fn.buf);
		if (key.len)
			warning_set_add(out, key.buf);
	}
	strbuf_release(&key);
	strbuf_release(&fn);
}
