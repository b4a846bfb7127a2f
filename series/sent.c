// SPDX-License-Identifier: GPL-2.0-or-later
#include "series/sent.h"

int series_version_sent(const struct series_version *v)
{
	return v && v->message_id && *v->message_id;
}
