/* unsupported.c — the calls api.def marks NOT: exported, so that a program
 * that imports one starts; each returns cudaErrorNotSupported and prints
 * one line naming itself (rt_unsupported). */
#include "cudart/exports.h"
#include "cudart/rt.h"

#define API(name, status, note) WS_API_##status(name)
#define WS_API_SUPPORTED(name)
#define WS_API_PARTIAL(name)
#define WS_API_NOT(name) \
  cudaError_t name(void) { return rt_unsupported(#name); }
#include "cudart/api.def"
