/*
 * predict.c — the prediction step of validation and the profile cache.
 *
 * The step goes through one function pointer, ws_valid_predict_fn: launch +
 * PTX + GPU -> profile + per-model times.  The real one (emulate, profile,
 * run the models) is in profile_run.c.
 *
 * The cache stores profiles only (the models are cheap and are re-run on a
 * cached profile): a profile depends on the kernel, its PTX, the launch and
 * the GPU facts the profiler reads (compute capability, caches, SMs:
 * ws_valid_cache_key_gpu), so one profile serves every model and every GPU
 * with the same facts.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "valid/valid_int.h"
#include "warpsight/model.h"
#include "warpsight/valid_cache.h"
#include "warpsight/valid_predict.h"

void ws_valid_result_free(ws_valid_result *r) {
  if (!r) return;
  ws_profile_free(r->profile);
  free(r->time_s);
  free(r->reason);
  r->profile = NULL;
  r->time_s = NULL;
  r->reason = NULL;
  r->nmodels = 0;
}

void ws_valid_measured_profile(ws_profile *out, const ws_profile *p, const ws_valid_row *row) {
  *out = *p; /* borrowed kernel name and JSON, own scalar fields */
  /* a generic row without measured resources: the profile's own */
  if (row->regs < 0 && row->static_smem < 0) return;
  if (row->regs >= 0) out->f.registers_per_thread = row->regs;
  if (row->static_smem >= 0)
    out->f.shared_bytes_per_block = row->static_smem + row->dynamic_smem;
  out->f.active_blocks_per_sm = NAN;
  out->f.active_sms = NAN;
}

int ws_valid_run_models(ws_valid_result *out, const ws_profile *p, const ws_gpu *g,
                        const char *const *models, size_t nmodels, const ws_valid_row *row,
                        ws_diag *d) {
  ws_profile measured;
  if (row) {
    ws_valid_measured_profile(&measured, p, row);
    p = &measured;
  }
  free(out->time_s);
  out->nmodels = 0;
  out->time_s = malloc((nmodels ? nmodels : 1) * sizeof *out->time_s);
  if (!out->time_s) return WS_ENOMEM;
  out->nmodels = nmodels;
  ws_floors fl;
  ws_model_floors_compute(&fl, p, g);
  out->floor_dram_s = fl.dram_ms / 1000.0;
  out->floor_issue_s = fl.issue_ms / 1000.0;
  int any = 0;
  ws_strbuf why = WS_STRBUF_INIT;
  free(out->reason);
  out->reason = NULL;
  for (size_t i = 0; i < nmodels; i++) {
    ws_model_result r = WS_MODEL_RESULT_INIT;
    ws_diag md = WS_DIAG_INIT;
    int st = ws_model_predict(&r, models[i], p, g, &md);
    out->time_s[i] = st == WS_OK ? r.time_ms / 1000.0 : NAN;
    if (st == WS_OK) any = 1;
    if (st != WS_OK) { /* the reason, for the report (rows.csv, the text) and the warning */
      ws_sb_printf(&why, "%s%s: ", why.n ? "; " : "", models[i]);
      if (r.nmissing) {
        ws_sb_printf(&why, "missing");
        for (size_t k = 0; k < r.nmissing; k++) ws_sb_printf(&why, "%s %s", k ? "," : "", r.missing[k]);
      } else {
        const char *msg = "failed without a reason";
        for (size_t k = 0; k < md.count; k++)
          if (md.items[k].severity == WS_SEV_ERROR) {
            msg = md.items[k].message;
            break;
          }
        ws_sb_printf(&why, "%s", msg);
        if (st != WS_EMISSING && d)
          ws_diag_add(d, WS_SEV_WARNING, NULL, 0, 0, "model %s on %s failed: %s", models[i],
                      p->kernel, msg);
      }
    }
    ws_model_result_free(&r);
    ws_diag_free(&md);
  }
  if (why.oom) {
    ws_sb_free(&why);
    return WS_ENOMEM;
  }
  out->reason = why.n ? ws_sb_take(&why) : NULL;
  ws_sb_free(&why);
  return any || nmodels == 0 ? WS_OK : WS_EMISSING;
}

/* Cache ------------------------------------------------------------------*/

typedef struct fnv {
  uint64_t h;  /* running FNV-1a 64 hash */
} fnv;

static void fnv_add(fnv *f, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) {
    f->h ^= p[i];
    f->h *= 0x100000001b3ull;
  }
}

/* A field: its text and a NUL, so that "ab"+"c" and "a"+"bc" differ. */
static void fnv_str(fnv *f, const char *s) { fnv_add(f, s, strlen(s) + 1); }

int ws_valid_cache_key(char out[17], const char *kernel, const char *ptx_text,
                       const ws_launch_spec *launch, int cc_major, int cc_minor,
                       int sample_blocks) {
  fnv f = {0xcbf29ce484222325ull};
  char tmp[64];
  /* Bumped whenever the profiler's figures change for the same inputs, so
   * stale profiles are not read (2: the interleaved cache replay; 3: the
   * dependencies section, atomics and sectors per warp; 4: sampled DRAM
   * bytes estimated per buffer; 5: a sample's own share of the L2; 6: the
   * DRAM partition imbalance; 7: the model-neutral warp_mix section instead
   * of the kothapalli and luo_suda sections (typed) and, separately, lines
   * per request (calib); 8: both merged, so that no profile written by
   * either branch alone is read; 9: the per-line table, section "lines"
   * (advisor); 10: tensor-core operations per type, and texture and
   * surface accesses counted as global requests (rt-device), merged; 11:
   * entries carry their key and a checksum in a header line, so that no
   * entry without one is looked up; and, separately, hashed cache sets,
   * 16 ways assumed, the unified L1's carve-out, the read-only path, atomic
   * conflicts, the L2's start (cold/warm, also in the key) and sampling
   * among working blocks (memmodel); 12: both merged; 13: an L1 miss
   * asks the L2 for the whole line where the L1 fetches lines, Fermi's:
   * CC 2.x profiles read 4x the L2 sectors of a scattered load); 14:
   * global loads with .cg/.cv, .volatile, .mmio or .relaxed/.acquire
   * wider than the CTA are served by the L2, not the L1, and Fermi's L1
   * lookups and hits are counted per line of a request (cache-ops); 15:
   * numbers written exactly (ws_json_print), so an entry read back gives
   * the models what the run that wrote it computed); 16: a generic row
   * without a registers column is profiled with `ptxas -v`'s registers and
   * shared memory, not the PTX's declarations (kt-sweep)). */
  fnv_str(&f, "warpsight-profile-cache/16");
  fnv_str(&f, kernel);
  fnv_str(&f, ptx_text ? ptx_text : "");
  /* The launch as the unformatted JSON of what --launches writes
   * (ws_valid_launch_cjson fixes the key order).  "kernel" is already
   * hashed. */
  cJSON *lj = ws_valid_launch_cjson(launch);
  if (!lj) return WS_ENOMEM;
  static const char *const keys[] = {"grid", "block", "dynamic_shared_bytes", "l2", "args"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(lj, keys[i]);
    char *s = it ? ws_json_print(it, 0) : NULL;
    if (it && !s) {
      cJSON_Delete(lj);
      return WS_ENOMEM;
    }
    fnv_str(&f, keys[i]);
    fnv_str(&f, s ? s : "null");
    free(s);
  }
  cJSON_Delete(lj);
  snprintf(tmp, sizeof tmp, "cc %d.%d sample %d", cc_major, cc_minor, sample_blocks);
  fnv_str(&f, tmp);
  snprintf(out, 17, "%016llx", (unsigned long long)f.h);
  return WS_OK;
}

int ws_valid_cache_key_gpu(char out[17], const char *kernel, const char *ptx_text,
                           const ws_launch_spec *launch, const ws_gpu *g,
                           int sample_blocks) {
  char base[17], tmp[512];
  int st = ws_valid_cache_key(base, kernel, ptx_text, launch, g->cc_major, g->cc_minor,
                              sample_blocks);
  if (st) return st;
  fnv f = {0xcbf29ce484222325ull};
  fnv_str(&f, base);
  const ws_cache_facts *c = &g->cache;
  snprintf(tmp, sizeof tmp,
           "l1 %d %d %d %d %d %d l2 %d %d %d %d ro %d sms %d regs %d dram %d %d cc %d.%d",
           c->l1_bytes, c->l1_shared_bytes, c->l1_line_bytes, c->l1_sector_bytes, c->l1_assoc,
           c->l1_caches_global, c->l2_bytes, c->l2_line_bytes, c->l2_sector_bytes, c->l2_assoc,
           c->readonly_bytes, g->sms, g->limits.max_regs_per_thread, g->dram.partitions,
           g->dram.interleave_bytes, g->cc_major, g->cc_minor);
  fnv_str(&f, tmp);
  /* The occupancy limits: the cache replay keeps that many blocks resident
   * per SM (src/profile/replay.c). */
  const ws_sm_limits *lm = &g->limits;
  snprintf(tmp, sizeof tmp, "limits %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d",
           lm->max_threads_per_sm, lm->max_warps_per_sm, lm->max_blocks_per_sm,
           lm->max_threads_per_block, lm->regs_per_sm, lm->max_regs_per_thread,
           lm->max_regs_per_block, lm->reg_alloc_unit, lm->reg_alloc_per_warp,
           lm->warp_alloc_granularity, lm->reg_sub_partitions, lm->shared_per_sm,
           lm->max_shared_per_block, lm->shared_alloc_unit, lm->shared_reserved_per_block);
  fnv_str(&f, tmp);
  /* No model parameter: the profiler reads none (the instruction mix is
   * model-neutral, docs/profile.md). */
  snprintf(out, 17, "%016llx", (unsigned long long)f.h);
  return WS_OK;
}

void ws_valid_cache_default_dir(char *buf, size_t n) {
  const char *x = getenv("XDG_CACHE_HOME");
  const char *home = getenv("HOME");
  if (x && *x) snprintf(buf, n, "%s/warpsight", x);
  else if (home && *home) snprintf(buf, n, "%s/.cache/warpsight", home);
  else snprintf(buf, n, ".warpsight-cache");
}

/* DIR/<kernel as a file-name part>-<key>.json */
static void entry_path(char *buf, size_t n, const char *dir, const char *kernel,
                       const char *key) {
  char safe[WS_NAME_PART_MAX + 1];
  ws_name_part(safe, kernel, 1);
  snprintf(buf, n, "%s/%s-%s.json", dir, safe, key);
}

/* An entry is a header line, then the profile's JSON:
 *   warpsight-profile-cache/1 key=<16 hex> fnv=<16 hex> bytes=<N>\n{...}
 * key: the entry's cache key (a file copied or renamed to another key is
 * another launch's profile); fnv: FNV-1a 64 of the N bytes of JSON (an
 * entry edited by hand, or cut short, no longer matches). */
#define ENTRY_MAGIC "warpsight-profile-cache/1"

static uint64_t fnv_of(const char *s, size_t n) {
  fnv f = {0xcbf29ce484222325ull};
  fnv_add(&f, s, n);
  return f.h;
}

/* Why the entry text[0..len) is not the profile of `key`, or NULL. */
static const char *entry_check(const char *text, size_t len, const char *key, const char **json) {
  char k[17], sum[17];
  unsigned long long bytes;
  int used = 0;
  if (sscanf(text, ENTRY_MAGIC " key=%16[0-9a-f] fnv=%16[0-9a-f] bytes=%llu\n%n", k, sum, &bytes,
             &used) != 3 || !used || text[used - 1] != '\n')
    return "it has no warpsight-profile-cache/1 header";
  if (strcmp(k, key)) return "its key is another launch's (a file copied or renamed)";
  *json = text + used;
  char want[17];
  snprintf(want, sizeof want, "%016llx", (unsigned long long)fnv_of(*json, len - (size_t)used));
  if (bytes != len - (size_t)used || strcmp(want, sum))
    return "its checksum does not match its content (edited, or cut short)";
  return NULL;
}

int ws_valid_cache_get(ws_profile **out, const char *dir, const char *kernel,
                       const char *key, ws_diag *d) {
  char path[4096];
  *out = NULL;
  entry_path(path, sizeof path, dir, kernel, key);
  if (access(path, R_OK) != 0) return WS_EMISSING;
  /* A damaged entry (a crash mid-write of an older version, a hand edit,
   * another kernel's file) is a miss, not an error: the profile is
   * recomputed and rewritten. */
  ws_diag ld = WS_DIAG_INIT;
  char *text = NULL;
  size_t len = 0;
  int st = ws_read_file(&text, &len, path, &ld);
  const char *json = NULL, *why = st ? "it cannot be read" : entry_check(text, len, key, &json);
  if (!why) {
    st = ws_profile_load_json(out, json, path, &ld);
    if (st != WS_OK && st != WS_ENOMEM) why = "its profile does not load";
  }
  free(text);
  ws_diag_free(&ld);
  if (st == WS_ENOMEM) return st;
  if (why) {
    ws_diag_add(d, WS_SEV_WARNING, path, 0, 0, "profile cache entry ignored: %s; the profile is "
                                                "recomputed", why);
    return WS_EMISSING;
  }
  return WS_OK;
}

/* mkdir -p */
static int make_dirs(const char *dir, ws_diag *d) {
  char buf[4096];
  size_t n = strlen(dir);
  if (n == 0 || n >= sizeof buf) return ws_diag_error(d, "bad cache folder '%s'", dir);
  memcpy(buf, dir, n + 1);
  for (size_t i = 1; i <= n; i++) {
    if (buf[i] == '/' || buf[i] == '\0') {
      char c = buf[i];
      buf[i] = '\0';
      if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
        ws_diag_add(d, WS_SEV_ERROR, buf, 0, 0, "cannot create the cache folder: %s",
                    strerror(errno));
        return WS_EIO;
      }
      buf[i] = c;
    }
  }
  return WS_OK;
}

int ws_valid_cache_put(const char *dir, const char *kernel, const char *key,
                       const ws_profile *p, ws_diag *d) {
  char path[4096];
  int st = make_dirs(dir, d);
  if (st) return st;
  entry_path(path, sizeof path, dir, kernel, key);
  char *json = ws_profile_to_json(p);
  if (!json) return WS_ENOMEM;
  size_t n = strlen(json);
  ws_outfile o;
  /* a temporary file renamed into place: concurrent runs never see half */
  if ((st = ws_outfile_open(&o, path, d)) == WS_OK) {
    fprintf(o.f, ENTRY_MAGIC " key=%s fnv=%016llx bytes=%zu\n", key,
            (unsigned long long)fnv_of(json, n), n);
    fwrite(json, 1, n, o.f);
    st = ws_outfile_commit(&o, d);
  }
  free(json);
  return st;
}
