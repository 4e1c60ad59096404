/*
 * util/suggest.h — "did you mean": the known name closest to a misspelt
 * one, for unknown keys in launch specs, GPU files and profiles and for
 * unknown names on the command line.  Internal to the library (src/).
 */
#ifndef WS_UTIL_SUGGEST_H
#define WS_UTIL_SUGGEST_H

/* Edit distance of a and b (insertions, deletions, substitutions and
 * transpositions of neighbours: "ouput", "inti", "grdi" are all 1 away),
 * capped at 3 (only small distances matter); 3 for names over 31 bytes. */
int ws_suggest_distance(const char *a, const char *b);

/* The name of `known` (a NULL-terminated list) closest to `name`: at
 * distance 1, or 2 for names of 5 or more letters; NULL when none is that
 * close (the first of equals wins).  Borrowed from `known`. */
const char *ws_suggest(const char *name, const char *const *known);

#endif
