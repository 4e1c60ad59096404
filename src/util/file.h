/*
 * util/file.h — reading a whole file for a parser.  Internal to the library
 * (src/), not public.
 */
#ifndef WS_UTIL_FILE_H
#define WS_UTIL_FILE_H

#include <stddef.h>

#include "warpsight/util.h"

/* A parser of text: writes its result through `out` (whatever the caller
 * passed to ws_parse_file) and returns a status. */
typedef int ws_text_parser(void *out, const char *text, size_t len, const char *path, ws_diag *d);

/* Reads `path` whole (ws_read_file) and hands its text to parse; returns
 * the read's error or parse's status.  The text is freed before return. */
int ws_parse_file(void *out, const char *path, ws_diag *d, ws_text_parser *parse);

#endif
