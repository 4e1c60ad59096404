/*
 * fatbin.h — reading the PTX out of a CUDA fat binary (docs/exec.md, "Fat
 * binaries").  A container is a 16-byte header and a list of entries (PTX
 * text or ELF cubins), each for one architecture, each possibly compressed
 * (zstd in CUDA 13 by default, an LZ4 block with --compress-mode=speed).
 * The runtime keeps only the PTX: it is what warpsight parses and runs.
 */
#ifndef WS_CUDART_FATBIN_H
#define WS_CUDART_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#include "warpsight/util.h"

/* The PTX entry for the best architecture of the container at `data`, of
 * which `avail` bytes may be read (every size in it is checked against
 * them before use): the
 * highest arch <= max_arch (e.g. 80 for CC 8.0), else the lowest one above
 * it.  *out is a malloc'd NUL-terminated text (the caller frees it), *arch
 * its architecture.  WS_EINVAL with a diagnostic for a container that is not
 * one (bad magic, truncated), WS_EUNSUP for one without PTX or compressed by
 * an unknown method (named by its flag bits), WS_ENOMEM. */
int ws_fatbin_ptx(char **out, int *arch, const void *data, uint64_t avail, int max_arch,
                  ws_diag *d);
/* The ELF cubin entry chosen as ws_fatbin_ptx chooses (the highest
 * architecture <= max_arch, else the lowest above it), decompressed into
 * *out (malloc'd, *len bytes).  WS_EUNSUP (no diagnostic) when there is
 * none; else as ws_fatbin_ptx. */
int ws_fatbin_elf(unsigned char **out, size_t *len, int *arch, const void *data, uint64_t avail, int max_arch,
                  ws_diag *d);
/* The bytes the container at `data` declares (header + entries): what a
 * program's own fat binary can be read up to (avail above). */
uint64_t ws_fatbin_size(const void *data);

/* Decode one raw LZ4 block (no frame) of `n` bytes into dst (cap bytes).
 * Returns the bytes written, or -1 for a malformed block or overflow. */
long ws_lz4_block_decode(unsigned char *dst, size_t cap, const unsigned char *src, size_t n);

#endif
