// SPDX-License-Identifier: GPL-2.0-or-later
#include "tools/lib/command.h"
#include "tools/lib/error.h"

int cmd_diff(int argc, const char **argv, struct command_context *ctx)
{
	return error_report(error("respin diff: not written yet"));
}
