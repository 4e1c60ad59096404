/*
 * warpsight/valid_cache.h — the profile cache of validation (docs/validation.md):
 * keys from a launch's inputs, lookup and store.
 *
 * Ownership: every ws_*_load/_read/_new gives the caller an object to release
 * with the matching _free (NULL is a no-op).
 */
#ifndef WARPSIGHT_VALID_CACHE_H
#define WARPSIGHT_VALID_CACHE_H

#include "warpsight/emu.h"
#include "warpsight/gpu.h"
#include "warpsight/profile.h"
#include "warpsight/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Profile cache ----------------------------------------------------------
 * A profile depends on the kernel, its PTX, the launch and the compute
 * capability, not on the GPU model or the performance model: the key is a
 * hash of kernel name + PTX text + grid + block + args (with their init) +
 * dynamic shared bytes + CC major.minor + sample_blocks.  Entries are profile
 * JSON files DIR/<kernel>-<key>.json. */

/* The 16-hex-digit key (FNV-1a 64 over a canonical text of the inputs). */
int ws_valid_cache_key(char out[17], const char *kernel, const char *ptx_text,
                       const ws_launch_spec *launch, int cc_major, int cc_minor,
                       int sample_blocks);
/* The key validation uses: ws_valid_cache_key's inputs plus every GPU fact
 * the profiler reads besides the compute capability — the cache facts (L1
 * and L2 sizes, lines, sectors, ways, whether L1 caches global loads), the
 * number of SMs (one simulated L1 each), the per-thread register limit and
 * the Kothapalli op_cycles (the costliest-warp weights).  Two GPUs share a
 * profile exactly when the profiler would compute the same numbers; the
 * performance models' own parameters (what calibration changes) are not in
 * the key. */
int ws_valid_cache_key_gpu(char out[17], const char *kernel, const char *ptx_text,
                           const ws_launch_spec *launch, const ws_gpu *g,
                           int sample_blocks);
/* The default folder: $XDG_CACHE_HOME/warpsight, else $HOME/.cache/warpsight,
 * else ".warpsight-cache".  Writes into buf (size n). */
void ws_valid_cache_default_dir(char *buf, size_t n);
/* Look up: WS_OK with *out a profile, WS_EMISSING when absent, or when the
 * entry is not this launch's (a warning then names the file and why:
 * unreadable, no header, another key (another kernel's or launch's entry,
 * copied or renamed), a checksum that does not match the content).  An entry is the line
 * "warpsight-profile-cache/1 key=KEY fnv=FNV-1a-64 bytes=N" and N bytes of
 * the profile's JSON. */
int ws_valid_cache_get(ws_profile **out, const char *dir, const char *kernel,
                       const char *key, ws_diag *d);
/* Store (creating dir; written to a temporary file then renamed).
 * ws_valid_run turns a failure into a warning and goes on without the
 * cache. */
int ws_valid_cache_put(const char *dir, const char *kernel, const char *key,
                       const ws_profile *p, ws_diag *d);

#ifdef __cplusplus
}
#endif
#endif
