/*
 * cubin.h — a kernel's resources as its cubin records them (cubin.c), for
 * occupancy and the profiler's resources (docs/exec.md, "Kernel
 * resources").
 */
#ifndef WS_CUDART_CUBIN_H
#define WS_CUDART_CUBIN_H

#include <stddef.h>
#include <stdint.h>

typedef struct ws_cubin_res {
  uint32_t registers;     /* per thread */
  uint64_t shared_bytes;  /* static shared memory per block */
  uint64_t local_bytes;   /* stack frame per thread */
} ws_cubin_res;

/* The resources of kernel `kernel` in the ELF cubin e (n bytes): 0 and
 * *out, 1 when the image has no such kernel, -1 when it is not a cubin
 * (or is truncated where it matters). */
int ws_cubin_kernel(const unsigned char *e, size_t n, const char *kernel, ws_cubin_res *out);

#endif
