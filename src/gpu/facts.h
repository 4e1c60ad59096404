/*
 * gpu/facts.h — the GPU facts at load (facts.c): where each came from, the
 * rules that derive a missing one, the warning for one no rule can derive,
 * and the serialiser's marks.  Internal to the library; the loader (gpu.c)
 * calls these in order: init, strip, (read the file), mark, derive, warn.
 */
#ifndef WS_GPU_FACTS_H
#define WS_GPU_FACTS_H

#include "warpsight/gpu.h"

struct cJSON;

/* The "unknown" values (NaN) of the facts that are doubles. */
void ws_gpu_facts_init(ws_gpu *g);
/* Drops the facts a serialised document marks "derived": true, so that
 * they are derived again from the file's own facts. */
void ws_gpu_facts_strip(struct cJSON *root);
/* GIVEN for every fact the document states. */
void ws_gpu_facts_mark(ws_gpu *g, const struct cJSON *root);
/* Derives the missing facts that have a rule (WS_OK or WS_ENOMEM). */
int ws_gpu_facts_derive(ws_gpu *g);
/* One warning naming every fact a consumer reads that is still absent. */
void ws_gpu_facts_warn(const ws_gpu *g, const char *origin, ws_diag *d);
/* Adds the derived facts to `root` (a copy of the file). */
int ws_gpu_facts_decorate(struct cJSON *root, const ws_gpu *g);
void ws_gpu_facts_free(ws_gpu *g);
/* dst's fact strings become copies of src's (dst a struct copy of src). */
int ws_gpu_facts_copy(ws_gpu *dst, const ws_gpu *src);
/* 1 if cc_facts.def has a row for the compute capability. */
int ws_gpu_cc_facts_known(int major, int minor);

#endif
