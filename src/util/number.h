/*
 * util/number.h — counts given as text by the user (command-line options,
 * WARPSIGHT_* environment variables).  Internal to the library.
 */
#ifndef WS_UTIL_NUMBER_H
#define WS_UTIL_NUMBER_H

#include <stdint.h>

/* s as a non-negative decimal integer into *out: 0, or -1 (and *out left
 * alone) when s is empty, negative, not all digits, or past 2^64 - 1.
 * With bytes, one optional suffix K (or k), M, G or T multiplies it by
 * 2^10, 2^20, 2^30 or 2^40. */
int ws_parse_count(const char *s, int bytes, uint64_t *out);

/* A number of blocks to profile (--sample-blocks, WARPSIGHT_SAMPLE_BLOCKS):
 * a count as ws_parse_count takes it (no suffix), or "all", which is 0:
 * every block.  0, or -1 (*out left alone). */
int ws_parse_sample_blocks(const char *s, uint64_t *out);

/* s as a plain decimal number into *out: [+-]digits[.digits][e[+-]digits]
 * (or .digits), nothing before or after it.  0, or -1 (*out left alone)
 * for anything strtod would take beyond that: a hex float ("0x1p-3"),
 * "inf", "nan", spaces; and for a result that is not finite. */
int ws_parse_decimal(const char *s, double *out);

/* A limit a user may raise with an environment variable: the count in
 * variable `name` (ws_parse_count, no suffix) when it is set and valid and
 * not zero, else dflt. */
uint64_t ws_env_limit(const char *name, uint64_t dflt);

#endif
