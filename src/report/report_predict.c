/*
 * report_predict.c — the parts of the `predict` and `model` reports around
 * the model results (warpsight/report.h, report/report_json.h): the kernel
 * and launch line, the profile's key figures, the bottleneck line, and the
 * head of a warpsight-predict/1 document (docs/cli-profile-predict.md).
 */
#include "warpsight/report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_json.h"
#include "util/demangle.h"

void ws_report_kernel_label(char *buf, size_t size, const char *name) {
  char *d = ws_demangle(name);
  if (d && strcmp(d, name) != 0)
    snprintf(buf, size, "%s [%s]", d, name);
  else
    snprintf(buf, size, "%s", name);
  free(d);
}

void ws_report_model_launch(FILE *out, const ws_profile *p, const ws_gpu *g) {
  char label[1024];
  ws_report_kernel_label(label, sizeof label, p->kernel);
  fprintf(out, "kernel %s: grid %u x %u x %u, block %u x %u x %u on %s (%s)\n\n", label,
          p->grid[0], p->grid[1], p->grid[2], p->block[0], p->block[1], p->block[2], g->name,
          g->full_name);
}

void ws_report_model_set_json(cJSON *set, const ws_profile *p, const ws_gpu *g) {
  cJSON_AddStringToObject(set, "gpu", g->name);
  cJSON_AddStringToObject(set, "kernel", p->kernel);
}

cJSON *ws_report_profile_sections(const ws_profile *p, const char *const *names, size_t n) {
  cJSON *root = cJSON_CreateObject();
  for (size_t i = 0; root && i < n; i++) {
    char *text = ws_profile_section_json(p, names[i]);
    cJSON *s = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (s) cJSON_AddItemToObject(root, names[i], s);
  }
  return root;
}

static double num_at(const cJSON *root, const char *sec, const char *key) {
  const cJSON *s = cJSON_GetObjectItemCaseSensitive(root, sec);
  const cJSON *v = s ? cJSON_GetObjectItemCaseSensitive(s, key) : NULL;
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* The kernel, launch, occupancy and resources lines. */
static void print_launch(FILE *out, const ws_profile *p, const ws_gpu *g) {
  const ws_profile_fields *f = &p->f;
  char label[1024];
  ws_report_kernel_label(label, sizeof label, p->kernel);
  fprintf(out, "kernel %s: grid %u x %u x %u, block %u x %u x %u on %s (%s, CC %d.%d)\n", label,
          p->grid[0], p->grid[1], p->grid[2], p->block[0], p->block[1], p->block[2], g->name,
          g->full_name, g->cc_major, g->cc_minor);
  ws_model_launch_ctx lc;
  ws_diag d = WS_DIAG_INIT;
  if (ws_model_launch_ctx_compute(&lc, p, g, &d) == WS_OK) {
    double occ = g->limits.max_warps_per_sm > 0 ? lc.active_warps_per_sm / g->limits.max_warps_per_sm : NAN;
    fprintf(out, "  occupancy        %g blocks/SM, %g warps/SM (%.0f %%) on %g SMs; %s\n",
            lc.active_blocks_per_sm, lc.active_warps_per_sm, 100 * occ, lc.active_sms,
            lc.occupancy_source);
  }
  ws_diag_free(&d);
  static const char *const secs[] = {"profiler"};
  cJSON *root = ws_report_profile_sections(p, secs, 1);
  const cJSON *pj = cJSON_GetObjectItemCaseSensitive(root, "profiler");
  const cJSON *rs = pj ? cJSON_GetObjectItemCaseSensitive(pj, "resources_source") : NULL;
  fprintf(out, "  resources        %g registers/thread, %g shared bytes/block (%s)\n",
          f->registers_per_thread, f->shared_bytes_per_block,
          cJSON_IsString(rs) ? rs->valuestring : "?");
  cJSON_Delete(root);
}

void ws_report_predict_figures(FILE *out, const ws_profile *p, const ws_gpu *g) {
  const ws_profile_fields *f = &p->f;
  print_launch(out, p, g);
  static const char *const secs[] = {"instruction_mix", "simd", "sampling"};
  cJSON *root = ws_report_profile_sections(p, secs, 3);
  fprintf(out, "  instructions     %.6g per warp:", num_at(root, "instruction_mix", "total_per_warp"));
  const cJSON *mix = cJSON_GetObjectItemCaseSensitive(root, "instruction_mix");
  const cJSON *pw = mix ? cJSON_GetObjectItemCaseSensitive(mix, "per_warp") : NULL;
  int n = 0;
  for (const cJSON *c = pw ? pw->child : NULL; c; c = c->next)
    fprintf(out, "%s %s %.6g", n++ % 6 == 5 ? "\n                  " : (n == 1 ? "" : ","),
            c->string, c->valuedouble);
  fprintf(out, "\n");
  fprintf(out, "  Hong-Kim split   comp %.6g, coalesced mem %.6g, uncoalesced mem %.6g, sync %.6g per warp\n",
          f->comp_insts, f->coal_mem_insts, f->uncoal_mem_insts, f->synch_insts);
  if (isnan(f->avg_trans_warp)) /* no global request: no per-request figure */
    fprintf(out, "  global memory    no requests; DRAM %.6g MB read, %.6g MB written\n",
            f->dram_read_bytes / 1e6, f->dram_write_bytes / 1e6);
  else
    fprintf(out, "  global memory    %.6g transactions/request, %.6g bytes/request; L1 hit %.1f %%, "
                 "L2 hit %.1f %%, DRAM %.6g MB read, %.6g MB written\n",
            f->avg_trans_warp, f->load_bytes_per_warp, 100 * f->l1_hit_ratio,
            100 * f->l2_hit_ratio, f->dram_read_bytes / 1e6, f->dram_write_bytes / 1e6);
  fprintf(out, "  shared memory    %.6g requests/warp, %.6g bank-conflict replays/warp\n",
          f->shared_mem_insts, f->bank_conflict_replays);
  fprintf(out, "  divergence       %.6g extra warp instructions/warp, %.1f %% of branches divergent, "
               "SIMD efficiency %.1f %%\n",
          f->divergent_extra_insts, 100 * f->divergent_branch_fraction,
          100 * num_at(root, "simd", "efficiency"));
  /* a figure the profile lacks (no load: no MLP) is said, never "nan" */
  fprintf(out, "  parallelism      ILP ");
  if (isnan(f->ilp)) fprintf(out, "-");
  else fprintf(out, "%.4g", f->ilp);
  if (isnan(f->mlp)) fprintf(out, ", MLP - (no global loads)\n");
  else fprintf(out, ", MLP %.4g\n", f->mlp);
  double prof = num_at(root, "sampling", "profiled_blocks"),
         tot = num_at(root, "sampling", "total_blocks");
  /* "auto" chose the sample (sampling.auto): the numbers of its rule */
  const cJSON *sam = cJSON_GetObjectItemCaseSensitive(root, "sampling");
  if (prof < tot && sam && cJSON_GetObjectItemCaseSensitive(sam, "auto"))
    fprintf(out, "  sampling         %.15g of %.15g blocks profiled (auto: ~%.3g warp instructions over the "
                 "%.3g budget); --sample-blocks all for a full profile\n",
            prof, tot, num_at(sam, "auto", "estimated_warp_insts"), num_at(sam, "auto", "budget_warp_insts"));
  else if (prof < tot)
    fprintf(out, "  sampling         %.15g of %.15g blocks profiled\n", prof, tot);
  if (!isnan(f->idle_block_fraction) && f->idle_block_fraction > 0)
    fprintf(out, "  idle blocks      %.1f %% of the grid make no global memory access (%s)\n",
            100 * f->idle_block_fraction,
            prof < tot ? "found by the scan; the per-warp figures are the grid's mean"
                       : "counted");
  fprintf(out, "\n");
  cJSON_Delete(root);
}

void ws_report_predict_bottleneck(FILE *out, const char *bottleneck, const ws_model_result *res,
                                  size_t nres) {
  if (bottleneck)
    fprintf(out, "\nbottleneck: %s\n", bottleneck);
  else if (nres && res[0].bound != WS_BOUND_NONE)
    fprintf(out, "\nbottleneck: %s (%s)\n", ws_model_limiter(&res[0]), res[0].model);
}

cJSON *ws_report_predict_json(const ws_profile *p, const ws_gpu *g) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "schema", "warpsight-predict/1");
  cJSON_AddStringToObject(root, "gpu", g->name);
  cJSON_AddStringToObject(root, "kernel", p->kernel);
  char *pt = ws_profile_to_json(p);
  cJSON *pj = pt ? cJSON_Parse(pt) : NULL;
  free(pt);
  cJSON_AddItemToObject(root, "profile", pj ? pj : cJSON_CreateNull());
  return root;
}
