/*
 * source_text.h — the source lines a profile's line table names, for
 * `predict --lines` and the HTML report: the CLI reads the files, the
 * renderers print the text.
 */
#ifndef WS_CLI_SOURCE_TEXT_H
#define WS_CLI_SOURCE_TEXT_H

#include <stddef.h>

#include "warpsight/profile.h"

/* The text of each row of p's line table (p->lines->nrows entries, each
 * owned, leading blanks and the newline stripped; NULL where the file or
 * the line is not found), or NULL without a table or out of memory.  A
 * file is looked for as the compiler named it, then by its base name in
 * the folder of `input` (the .cu or .ptx given).  Free with
 * cli_source_text_free(text, p->lines->nrows). */
char **cli_source_text(const ws_profile *p, const char *input);
void cli_source_text_free(char **text, size_t n);

#endif
