/*
 * gpu/derive.h — model parameters derived from a GPU's base numbers at load
 * time (derive.c, docs/gpu-parameters.md).  Internal to the library.
 */
#ifndef WS_GPU_DERIVE_H
#define WS_GPU_DERIVE_H

#include "warpsight/gpu.h"

/* For every parameter with a derivation rule: mark it {"given": true} when
 * g's document gives it, else add it as a derived value object (when its
 * inputs are known).  g's values must have passed the loader's checks.
 * Returns WS_OK or WS_ENOMEM. */
int ws_gpu_derive(ws_gpu *g);

/* The SFU throughput and FP32 latency of a compute capability's row of
 * cc_arch.def (results per clock per SM, cycles); NaN when unknown.  The
 * GPU-fact rules (facts.c) derive sfu_per_sm and latencies.fp32 from them. */
double ws_gpu_arch_sfu(int major, int minor);
double ws_gpu_arch_fp32_lat(int major, int minor);

#endif
