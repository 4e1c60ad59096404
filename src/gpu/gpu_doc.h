/*
 * gpu_doc.h — private to src/gpu: the GPU file as loaded, kept for the
 * serialiser (ws_gpu_to_json) and for parameters of models that
 * gpu_params.def does not declare (a user's own table).  Never edited after
 * load: derived and replaced parameters live in ws_gpu.params and are added
 * to a copy when the GPU is written out.
 */
#ifndef WS_GPU_DOC_H
#define WS_GPU_DOC_H

#include <cjson/cJSON.h>

#include "warpsight/gpu.h"

struct ws_gpu_doc {
  cJSON *root;         /* the whole document (owned) */
  const cJSON *models; /* root["models"] or NULL */
};

/* Reads the parameters the file gives into g->params (typed; origin GIVEN). */
int ws_gpu_params_read(ws_gpu *g);
/* Adds the derived parameters to `root` (a copy of the file) and marks the
 * given ones that have a rule, in derive.c's rule order. */
int ws_gpu_derive_decorate(cJSON *root, const ws_gpu *g);
/* The object root.models.MODEL[.TABLE], created as needed; NULL if out of
 * memory or in the way of a non-object. */
cJSON *ws_gpu_doc_parent(cJSON *root, const char *model, const char *table);

#endif
