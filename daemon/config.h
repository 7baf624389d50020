/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>

#include "policy.h"

G_BEGIN_DECLS

/* Builds the system policy: defaults, then the main file (if it exists),
 * then every "*.conf" in dropin_dir in lexical order. All or nothing: on any
 * error (message names the file, and the line or key) *out is untouched. */
gboolean ttg_config_load (const char *main_file, const char *dropin_dir,
                          TtgPolicy *out, GError **error);

/* The text of one configuration file (length bytes at data, which need not
 * end in NUL nor be UTF-8) on top of *p: what ttg_config_load() does with
 * each file once it is read, without any I/O. All or nothing: on error *p is
 * untouched and the TTG_ERROR_INVALID_POLICY message starts with "origin:"
 * (and the line, where one is to blame). */
gboolean ttg_config_merge_data (TtgPolicy *p, const char *data, gsize length, const char *origin,
                                GError **error);

/* GKeyFile's parse errors quote the offending line ("Key file contains line
 * “foo” which is ...") without its number: finds that line in text, 1-based,
 * or 0 when the message quotes nothing that is found. */
guint ttg_keyfile_error_line (const char *text, const char *message);

/* The first line that is neither blank nor a comment, 1-based (0: none):
 * where a key file that "does not start with a group" goes wrong. */
guint ttg_keyfile_first_content_line (const char *text);

G_END_DECLS
