/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RESPIN_BUILTIN_H
#define RESPIN_BUILTIN_H

#include "tools/lib/command.h"

/* One line per command; each lives in its folder's cmd-NAME.c. */
int cmd_track(int argc, const char **argv, struct command_context *ctx);
int cmd_list(int argc, const char **argv, struct command_context *ctx);
int cmd_status(int argc, const char **argv, struct command_context *ctx);
int cmd_show(int argc, const char **argv, struct command_context *ctx);
int cmd_diff(int argc, const char **argv, struct command_context *ctx);
int cmd_thread(int argc, const char **argv, struct command_context *ctx);
int cmd_import(int argc, const char **argv, struct command_context *ctx);
int cmd_rebase(int argc, const char **argv, struct command_context *ctx);
int cmd_check(int argc, const char **argv, struct command_context *ctx);
int cmd_results(int argc, const char **argv, struct command_context *ctx);
int cmd_cover(int argc, const char **argv, struct command_context *ctx);
int cmd_format(int argc, const char **argv, struct command_context *ctx);
int cmd_fixup(int argc, const char **argv, struct command_context *ctx);
int cmd_report(int argc, const char **argv, struct command_context *ctx);
int cmd_reply(int argc, const char **argv, struct command_context *ctx);
int cmd_thanks(int argc, const char **argv, struct command_context *ctx);
int cmd_send(int argc, const char **argv, struct command_context *ctx);
int cmd_trailers(int argc, const char **argv, struct command_context *ctx);
int cmd_review(int argc, const char **argv, struct command_context *ctx);
int cmd_tree(int argc, const char **argv, struct command_context *ctx);
int cmd_replace(int argc, const char **argv, struct command_context *ctx);
int cmd_rm(int argc, const char **argv, struct command_context *ctx);
int cmd_rename(int argc, const char **argv, struct command_context *ctx);
int cmd_bisect(int argc, const char **argv, struct command_context *ctx);
int cmd_bisect_base(int argc, const char **argv, struct command_context *ctx);

#endif
