/* unsupported.c — the calls of unsupported.def: cudaErrorNotSupported and
 * one stderr line naming the call (rt_unsupported). */
#include "cudart/exports.h"
#include "cudart/rt.h"

#define WS_UNSUPPORTED(name) \
  cudaError_t name(void) { return rt_unsupported(#name); }
#include "cudart/unsupported.def"
#undef WS_UNSUPPORTED
