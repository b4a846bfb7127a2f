// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A mail's Date: header read: the common RFC 5322 form by hand (it is
 * read for every message of a year of mail), anything else by GMime.
 */
#include "patches/mail.h"
#include "patches/patchmail.h"
#include "tools/lib/error.h"

#include <ctype.h>
#include <gmime/gmime.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static long long days_from_civil(long long y, unsigned m, unsigned d)
{
	long long era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long long)doe - 719468;
}

static int digits(const char **pp, int min, int max, int *out)
{
	const char *p = *pp;
	int n = 0, v = 0;

	while (n < max && *p >= '0' && *p <= '9') {
		v = v * 10 + (*p++ - '0');
		n++;
	}
	if (n < min)
		return -1;
	*pp = p;
	*out = v;
	return 0;
}

static void skip_blanks(const char **pp)
{
	while (**pp == ' ' || **pp == '\t')
		(*pp)++;
}

/* "[Day,] DD Mon YYYY HH:MM[:SS] +ZZZZ|GMT|UT|UTC|Z" */
static int date_fast(const char *p, long long *out, int *tz)
{
	static const char months[] = "janfebmaraprmayjunjulaugsepoctnovdec";
	int day, mon, year, hh, mm, ss = 0, zone = 0, zh, zm, i;
	char m[3];

	skip_blanks(&p);
	if (isalpha((unsigned char)*p)) {
		while (isalpha((unsigned char)*p))
			p++;
		if (*p == ',')
			p++;
		skip_blanks(&p);
	}
	if (digits(&p, 1, 2, &day) < 0)
		return -1;
	skip_blanks(&p);
	for (i = 0; i < 3; i++) {
		if (!isalpha((unsigned char)p[i]))
			return -1;
		m[i] = tolower((unsigned char)p[i]);
	}
	p += 3;
	while (isalpha((unsigned char)*p))
		p++;
	for (mon = 0; mon < 12; mon++)
		if (!memcmp(months + 3 * mon, m, 3))
			break;
	if (mon == 12)
		return -1;
	skip_blanks(&p);
	{
		const char *y0 = p;

		if (digits(&p, 2, 4, &year) < 0)
			return -1;
		if (p - y0 == 2)
			year += year < 50 ? 2000 : 1900;
		else if (p - y0 == 3)
			year += 1900;
	}
	skip_blanks(&p);
	if (digits(&p, 1, 2, &hh) < 0 || *p++ != ':' ||
	    digits(&p, 2, 2, &mm) < 0)
		return -1;
	if (*p == ':') {
		p++;
		if (digits(&p, 2, 2, &ss) < 0)
			return -1;
	}
	skip_blanks(&p);
	if (*p == '+' || *p == '-') {
		int sign = *p++ == '-' ? -1 : 1;

		if (digits(&p, 2, 2, &zh) < 0 || digits(&p, 2, 2, &zm) < 0)
			return -1;
		zone = sign * (zh * 3600 + zm * 60);
	} else if (!strncasecmp(p, "GMT", 3) || !strncasecmp(p, "UTC", 3) ||
		   !strncasecmp(p, "UT", 2) || *p == 'Z' || *p == 'z') {
		zone = 0;
	} else {
		return -1;	/* other zone names: let GMime decide */
	}
	if (day < 1 || day > 31 || hh > 23 || mm > 59 || ss > 60)
		return -1;
	*out = days_from_civil(year, mon + 1, day) * 86400LL +
	       hh * 3600 + mm * 60 + ss - zone;
	*tz = zone / 60;
	return 0;
}

int mail_date_parse_tz(const char *s, long long *out, int *tz_minutes)
{
	GDateTime *dt;
	int tz = 0;

	if (!tz_minutes)
		tz_minutes = &tz;
	*tz_minutes = 0;
	if (!date_fast(s, out, tz_minutes))
		return 0;
	mail_gmime_init();
	dt = g_mime_utils_header_decode_date(s);
	if (!dt)
		return -1;
	*out = g_date_time_to_unix(dt);
	*tz_minutes = (int)(g_date_time_get_utc_offset(dt) /
			    G_TIME_SPAN_MINUTE);
	g_date_time_unref(dt);
	/* GMime answers the epoch for what it cannot read */
	return *out ? 0 : -1;
}

int mail_date_parse(const char *s, long long *out)
{
	return mail_date_parse_tz(s, out, NULL);
}
