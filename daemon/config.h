/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>

#include "limiter.h"
#include "policy.h"

G_BEGIN_DECLS

/* Builds the system policy: defaults, then the main file (if it exists),
 * then every "*.conf" in dropin_dir in lexical order, and the [Limits] of
 * the files (defaults where not set) into *limits_out when it is not NULL.
 * All or nothing: on any error (message names the file, and the line or
 * key) *out and *limits_out are untouched. */
gboolean ttg_config_load (const char *main_file, const char *dropin_dir,
                          TtgPolicy *out, TtgLimits *limits_out, GError **error);

/* The text of one configuration file (length bytes at data, which need not
 * end in NUL nor be UTF-8) on top of *p: what ttg_config_load() does with
 * each file once it is read, without any I/O. All or nothing: on error *p is
 * untouched (and *limits, which may be NULL, with it: both or neither
 * change) and the TTG_ERROR_INVALID_POLICY message starts with "origin:"
 * (and the line, where one is to blame). */
gboolean ttg_config_merge_data (TtgPolicy *p, TtgLimits *limits, const char *data, gsize length,
                                const char *origin, GError **error);

/* The line, 1-based, where GKeyFile stops parsing text (0: it parses):
 * found by parsing, never from GKeyFile's message, which is translated. */
guint ttg_keyfile_bad_line (const char *text);

G_END_DECLS
