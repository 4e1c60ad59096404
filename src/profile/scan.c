/*
 * scan.c — sampling that finds the work (scan.h; docs/profile.md,
 * "Sampling"): probe candidate blocks, choose the sample among the working
 * ones, combine the working and idle profiles.
 */
#include "scan.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_doc.h"
#include "warpsight/profiler.h"

/* The probe run's state (one thread: the run has one worker). */
typedef struct probe {
  const uint64_t *cand;   /* candidate blocks, ascending */
  uint64_t n;             /* candidates */
  uint8_t *works;         /* per candidate: 1 when it did work */
  uint64_t cur;           /* the block running: its candidate index */
  int touched;            /* it made a global memory request */
  uint32_t insts[32];     /* its warps' instructions so far */
  int stopped;            /* a warp reached the leash */
} probe;

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Block b's index among the candidates, or UINT64_MAX. */
static uint64_t cand_index(const probe *pr, uint64_t b) {
  const uint64_t *hit = bsearch(&b, pr->cand, pr->n, sizeof *pr->cand, cmp_u64);
  return hit ? (uint64_t)(hit - pr->cand) : UINT64_MAX;
}

static int probe_filter(void *user, uint32_t b) {
  return cand_index(user, b) == UINT64_MAX ? WS_EMU_BLOCK_SKIP : WS_EMU_BLOCK_PROBE;
}

static void probe_begin(void *user, int worker, uint32_t b) {
  (void)worker;
  probe *pr = user;
  pr->cur = cand_index(pr, b);
  pr->touched = pr->stopped = 0;
  memset(pr->insts, 0, sizeof pr->insts);
}

static void probe_inst(void *user, const ws_emu_event *ev) {
  probe *pr = user;
  if (ev->addr && ev->exec && ev->space == WS_PTX_SP_GLOBAL) pr->touched = 1;
  if (++pr->insts[ev->warp & 31] >= WS_EMU_PROBE_WARP_INSTS) pr->stopped = 1;
}

static void probe_end(void *user, int worker, uint32_t b) {
  (void)worker, (void)b;
  probe *pr = user;
  if (pr->cur < pr->n) pr->works[pr->cur] = (uint8_t)(pr->touched || pr->stopped);
}

/* Probe the Hammersley set of m blocks: cand (m entries, ascending) and
 * works (1 per working block). */
static int probe_run(uint64_t *cand, uint8_t *works, uint64_t m, ws_emu_launch *L,
                     const uint32_t grid[3], ws_diag *d) {
  ws_prof_sample_plan(cand, grid, m);
  memset(works, 1, m); /* a block the run never reached counts as working */
  probe pr = {cand, m, works, UINT64_MAX, 0, {0}, 0};
  ws_emu_hooks h = {.user = &pr, .inst = probe_inst, .block_begin = probe_begin,
                    .block_end = probe_end, .block_filter = probe_filter};
  ws_emu_options eo = WS_EMU_OPTIONS_INIT;
  eo.threads = 1; /* block order: the probes' writes meet in one order */
  eo.max_launch_insts = 0;
  eo.hooks = &h;
  ws_emu_stats st;
  return ws_emu_run(L, &eo, &st, d);
}

/* k of the n entries of v (k <= n): the centres of k equal strata. */
static void strata(uint64_t *out, const uint64_t *v, uint64_t n, uint64_t k) {
  for (uint64_t i = 0; i < k; i++)
    out[i] = v[(uint64_t)(((unsigned __int128)(2 * i + 1) * n) / (2 * (unsigned __int128)k))];
}

int ws_prof_scan(ws_scan *out, ws_emu_launch *scratch, const uint32_t grid[3], uint64_t n,
                 ws_diag *d) {
  memset(out, 0, sizeof *out);
  uint64_t total = (uint64_t)grid[0] * grid[1] * grid[2];
  uint64_t m2 = total < WS_SCAN_SECOND ? total : WS_SCAN_SECOND;
  uint64_t *cand = malloc(m2 * sizeof *cand);
  uint8_t *works = malloc(m2);
  int st = cand && works ? WS_OK : WS_ENOMEM;
  uint64_t m = total < WS_SCAN_FIRST ? total : WS_SCAN_FIRST, idle = 0;
  for (int stage = 1; st == WS_OK && stage <= 2; stage++) {
    if (stage == 2) m = m2;
    st = probe_run(cand, works, m, scratch, grid, d);
    if (st) break;
    out->stages = stage;
    idle = 0;
    for (uint64_t i = 0; i < m; i++) idle += !works[i];
    if (!idle || m == m2) break; /* none idle: the usual sample */
  }
  if (st == WS_OK) {
    out->probed = m;
    out->idle = idle;
    out->idle_fraction = m ? (double)idle / (double)m : 0;
  }
  uint64_t nw = m - idle;
  if (st == WS_OK && idle && nw) {
    uint64_t *wl = malloc(nw * sizeof *wl), *il = malloc(idle * sizeof *il);
    uint64_t kw = nw < n ? nw : n, ki = idle < WS_SCAN_IDLE ? idle : WS_SCAN_IDLE;
    out->work = malloc(kw * sizeof *out->work);
    out->idle_blocks = malloc(ki * sizeof *out->idle_blocks);
    if (!wl || !il || !out->work || !out->idle_blocks) {
      st = WS_ENOMEM;
    } else {
      uint64_t a = 0, b = 0;
      for (uint64_t i = 0; i < m; i++) {
        if (works[i]) wl[a++] = cand[i];
        else il[b++] = cand[i];
      }
      strata(out->work, wl, nw, kw);
      strata(out->idle_blocks, il, idle, ki);
      out->nwork = kw;
      out->nidle = ki;
    }
    free(wl);
    free(il);
  }
  free(cand);
  free(works);
  if (st) ws_prof_scan_free(out);
  return st;
}

void ws_prof_scan_free(ws_scan *s) {
  free(s->work);
  free(s->idle_blocks);
  memset(s, 0, sizeof *s);
}

/* Fields weighted between working and idle blocks: the per-warp counts,
 * the dependency path (a mean over blocks) and the sectors per warp. */
static int weighted(const ws_profile_field_info *fi) {
  return !strcmp(fi->section, "per_warp") || !strcmp(fi->section, "dependencies") ||
         !strcmp(fi->key, "l1_sectors_per_warp") || !strcmp(fi->key, "l2_sectors_per_warp");
}

/* x = (1 - f) x + f y for a number member of two objects (y absent: 0). */
static void mix_number(cJSON *x, const cJSON *y, double f) {
  double b = cJSON_IsNumber(y) ? y->valuedouble : 0;
  cJSON_SetNumberValue(x, (1 - f) * x->valuedouble + f * b);
}

/* The instruction_mix section, a report of per-warp counts: weighted as
 * the fields are (classes only the idle blocks ran are added). */
static int mix_section(ws_profile *work, const ws_profile *idle, double f) {
  cJSON *root = ws_profile_doc_root(work);
  const cJSON *iroot = ws_profile_doc_peek(idle);
  const char *key = ws_profile_sec_key(WS_PSEC_INSTRUCTION_MIX);
  cJSON *m = root ? cJSON_GetObjectItemCaseSensitive(root, key) : NULL;
  const cJSON *im = iroot ? cJSON_GetObjectItemCaseSensitive(iroot, key) : NULL;
  if (!root) return WS_ENOMEM;
  if (!m || !im) return WS_OK;
  cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "total_per_warp");
  if (cJSON_IsNumber(t)) mix_number(t, cJSON_GetObjectItemCaseSensitive(im, "total_per_warp"), f);
  cJSON *pw = cJSON_GetObjectItemCaseSensitive(m, "per_warp");
  const cJSON *ipw = cJSON_GetObjectItemCaseSensitive(im, "per_warp");
  if (!pw) return WS_OK;
  for (cJSON *c = pw->child; c; c = c->next)
    if (cJSON_IsNumber(c)) mix_number(c, cJSON_GetObjectItemCaseSensitive(ipw, c->string), f);
  for (const cJSON *c = ipw ? ipw->child : NULL; c; c = c->next)
    if (cJSON_IsNumber(c) && !cJSON_GetObjectItemCaseSensitive(pw, c->string) &&
        !cJSON_AddNumberToObject(pw, c->string, f * c->valuedouble))
      return WS_ENOMEM;
  return WS_OK;
}

int ws_prof_scan_combine(ws_profile *work, const ws_profile *idle, const ws_scan *s) {
  double f = s->idle_fraction;
  if (idle && s->work) {
    if (mix_section(work, idle, f)) return WS_ENOMEM;
    for (size_t i = 0; i < ws_profile_field_count; i++) {
      const ws_profile_field_info *fi = &ws_profile_field_table[i];
      if (!weighted(fi)) continue;
      double *w = (double *)((char *)&work->f + fi->offset);
      double v = *(const double *)((const char *)&idle->f + fi->offset);
      if (isnan(*w) && isnan(v)) continue;
      *w = (1 - f) * (isnan(*w) ? 0 : *w) + f * (isnan(v) ? 0 : v);
    }
  }
  if (s->stages) work->f.idle_block_fraction = f;
  cJSON *root = ws_profile_doc_root(work);
  if (!root) return WS_ENOMEM;
  cJSON *sam = cJSON_GetObjectItemCaseSensitive(root, ws_profile_sec_key(WS_PSEC_SAMPLING));
  if (!sam) sam = cJSON_AddObjectToObject(root, ws_profile_sec_key(WS_PSEC_SAMPLING));
  cJSON *sc = sam ? cJSON_AddObjectToObject(sam, "scan") : NULL;
  if (!sc) return WS_ENOMEM;
  if (!s->stages) {
    cJSON_AddStringToObject(sc, "method", "none: the launch cannot be copied to probe its blocks "
                                          "(a runtime launch); the sample is the usual one");
    return WS_OK;
  }
  cJSON_AddStringToObject(
      sc, "method",
      "probe a Hammersley set of blocks on a copy of the launch, each until a warp passes "
      "the leash or the block ends; a block that makes no global memory access is idle; "
      "stage 2 (more blocks) only when stage 1 finds an idle one");
  cJSON_AddNumberToObject(sc, "leash_warp_insts", WS_EMU_PROBE_WARP_INSTS);
  cJSON_AddNumberToObject(sc, "stages", s->stages);
  cJSON_AddNumberToObject(sc, "probed_blocks", (double)s->probed);
  cJSON_AddNumberToObject(sc, "idle_blocks", (double)s->idle);
  cJSON_AddNumberToObject(sc, "idle_fraction", f);
  if (s->work) {
    cJSON_AddNumberToObject(sc, "working_blocks_profiled", (double)s->nwork);
    cJSON_AddNumberToObject(sc, "idle_blocks_profiled", idle ? (double)s->nidle : 0);
    cJSON_AddStringToObject(sc, "weighting",
                            "per-warp counts, dependency path and sectors per warp: (1 - f) x "
                            "the working blocks' + f x the idle blocks' (f the idle fraction); "
                            "DRAM bytes: the working blocks' estimate for (1 - f) x the grid's "
                            "blocks; the rest: the working blocks'");
  } else if (s->idle == s->probed) {
    cJSON_AddStringToObject(sc, "note", "every probed block is idle: the usual sample");
  }
  return WS_OK;
}
