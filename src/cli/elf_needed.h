/*
 * elf_needed.h — the shared libraries a program names (its DT_NEEDED
 * entries), for `exec` to say before the run when the program links a
 * library that warpsight's runtime cannot serve (docs/exec.md, "NVIDIA's
 * libraries").
 */
#ifndef WS_CLI_ELF_NEEDED_H
#define WS_CLI_ELF_NEEDED_H

#include <stddef.h>

/* The DT_NEEDED names of the 64-bit little-endian ELF file at `path`, as
 * one buffer of NUL-terminated strings (*names, *n of them; free(*names)).
 * Returns 0; -1 when the file cannot be read or is not such an ELF file
 * with a dynamic section (a script, a static program: nothing to say),
 * *names NULL and *n 0 then.  Every offset is checked against the file's
 * size: a damaged file gives -1, never a read outside it. */
int cli_elf_needed(const char *path, char **names, size_t *n);

/* The library of NVIDIA's that `soname` names and that runs its own
 * kernels through the CUDA driver (so under warpsight it sees no GPU):
 * its product name ("cuBLAS", "cuFFT", ...), or NULL for any other
 * library.  libcuda.so.1 itself is "the CUDA driver API". */
const char *cli_driver_library(const char *soname);

#endif
