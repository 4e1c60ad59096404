/*
 * warpsight/valid_launch.h — launch specs from measured rows (docs/validation.md):
 * grid, block and buffers of a row of the data set, and the spec as JSON
 * (`validate --launches`).
 *
 * Ownership: every ws_*_load/_read/_new gives the caller an object to release
 * with the matching _free (NULL is a no-op).
 */
#ifndef WARPSIGHT_VALID_LAUNCH_H
#define WARPSIGHT_VALID_LAUNCH_H

#include "warpsight/emu.h"
#include "warpsight/util.h"
#include "warpsight/valid_data.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The launch spec (DESIGN.md "Launch spec") for one row: grid and block from
 * the row, buffers and scalars from Input.Size, random inputs.  Checks the
 * row's grid against Input.Size and the shared memory against the block; a
 * mismatch is an error naming origin:line.  The spec's path (for the
 * emulator's messages) is "origin:line".  The caller owns *out
 * (ws_emu_launch_spec_free). */
int ws_valid_launch(ws_launch_spec **out, const ws_valid_row *row,
                    const char *origin, ws_diag *d);
/* A launch spec as JSON text that ws_emu_launch_spec_parse() reads back to the
 * same spec (indented; `validate --launches DIR`).  Relative
 * init files are written as resolved.  malloc'd (caller frees); NULL on
 * ENOMEM or for an f16/bf16 scalar, which the format has no value for. */
char *ws_valid_launch_json(const ws_launch_spec *s);

#ifdef __cplusplus
}
#endif
#endif
