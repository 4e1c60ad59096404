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

/* A parser that takes the text over (malloc'd, len + 1 bytes with a NUL
 * at len): it keeps it in its result or frees it. */
typedef int ws_text_taker(void *out, char *text, size_t len, const char *path, ws_diag *d);
/* ws_parse_file for a parser that takes the text over (a CSV parsed in
 * place keeps the file's text as its cells). */
int ws_take_file(void *out, const char *path, ws_diag *d, ws_text_taker *take);

/* What a file of mode m is, in words ("a directory", "a FIFO (named pipe)",
 * "a character device", ...), for the errors of inputs and outputs that
 * must be regular files. */
const char *ws_file_kind(unsigned m);

/* The longest file-name part ws_name_part makes: 100 bytes, so that with a
 * prefix and a suffix ("-12-roofline.png") a name stays well within the
 * 255 bytes a file name may have (NAME_MAX). */
#define WS_NAME_PART_MAX 100

/* `name` (a kernel's name, possibly a long templated one) as a part of a
 * file name: letters, digits, '_' and '-' kept, every other byte '_'
 * (also '.' with dot, but never as the first byte); a name longer than
 * WS_NAME_PART_MAX bytes is cut to fit and "-" and 16 hex digits of its
 * FNV-1a 64 hash are appended, so that long names sharing their first
 * 83 bytes (templates differing in the last argument) stay apart.  buf
 * holds WS_NAME_PART_MAX + 1 bytes.  Returns the length. */
size_t ws_name_part(char buf[WS_NAME_PART_MAX + 1], const char *name, int dot);

#endif
