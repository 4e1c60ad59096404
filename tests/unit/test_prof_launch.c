/*
 * test_prof_launch.c — profiling a launch in one call (ws_prof_launch,
 * ws_prof_launch_spec): the rule for worker threads, the rule for a
 * kernel's resources (on a module with two kernels and a called function),
 * and a small kernel profiled end to end against counts made by hand.
 */
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "testutil.h"
#include "warpsight/profiler.h"

/* The thread rule: requested (or the cores), at most the blocks that run,
 * at most WS_PROF_MAX_THREADS. */
static void workers_rule(void **s) {
  (void)s;
  assert_int_equal(ws_prof_workers(8, 100, 0, 0), 8);     /* 100 blocks run */
  assert_int_equal(ws_prof_workers(8, 100, 2, 0), 2);     /* 2 sampled, 98 skipped */
  assert_int_equal(ws_prof_workers(8, 100, 2, 1), 8);     /* the rest runs too */
  assert_int_equal(ws_prof_workers(8, 100, 500, 0), 8);   /* N >= blocks: all of them */
  assert_int_equal(ws_prof_workers(1000, 100000, 0, 0), WS_PROF_MAX_THREADS);
  assert_int_equal(ws_prof_workers(5, 0, 0, 0), 1);       /* never fewer than one */
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  long want = cores < 1 ? 1 : cores > WS_PROF_MAX_THREADS ? WS_PROF_MAX_THREADS : cores;
  assert_int_equal(ws_prof_workers(0, 100000, 0, 0), want);
  assert_int_equal(ws_prof_workers(0, 1, 0, 0), 1);
}

/* Two kernels share a module.  ka declares own[16] and .local stack[24],
 * stores to the module's sa[100] and calls helper, which stores to sc[40];
 * kb takes the address of sb[200].  unused[1000] is named by nobody. */
static const char two_kernels[] =
    ".version 7.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".shared .align 4 .b8 sa[100];\n"
    ".shared .align 4 .b8 sb[200];\n"
    ".shared .align 4 .b8 sc[40];\n"
    ".shared .align 4 .b8 unused[1000];\n"
    ".func helper()\n"
    "{\n"
    "  .reg .b32 %r<2>;\n"
    "  st.shared.u32 [sc], %r1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry ka()\n"
    "{\n"
    "  .reg .b32 %r<3>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  .reg .pred %p<2>;\n"
    "  .shared .align 4 .b8 own[16];\n"
    "  .local .align 4 .b8 stack[24];\n"
    "  st.shared.u32 [sa], %r1;\n"
    "  st.shared.u32 [own], %r2;\n"
    "  call.uni helper;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry kb()\n"
    "{\n"
    "  .reg .b32 %r<2>;\n"
    "  mov.u32 %r1, sb;\n"
    "  st.shared.u32 [%r1], %r1;\n"
    "  ret;\n"
    "}\n";

static void resources_two_kernels(void **s) {
  (void)s;
  ws_diag d = WS_DIAG_INIT;
  ws_ptx_module *m = NULL;
  assert_ok_diag(ws_ptx_parse(&m, two_kernels, strlen(two_kernels), "two.ptx", &d), &d);
  ws_prof_resources r;
  /* ka: registers %r0..%r2 = 3, %rd0..%rd1 = 2 x 2 (64-bit) = 4, predicates
   * none: 7.  Shared: own 16 + sa 100 + sc 40 (through helper) = 156, not
   * sb or unused (all four module variables would be 1340 + 16).  Local 24. */
  ws_prof_kernel_resources(&r, m, ws_ptx_find_function(m, "ka"), NULL);
  assert_close(r.registers_per_thread, 7, 0);
  assert_close(r.shared_bytes_per_block, 156, 0);
  assert_close(r.local_bytes_per_thread, 24, 0);
  /* kb: %r0..%r1 = 2 registers; shared sb 200; no local. */
  ws_prof_kernel_resources(&r, m, ws_ptx_find_function(m, "kb"), NULL);
  assert_close(r.registers_per_thread, 2, 0);
  assert_close(r.shared_bytes_per_block, 200, 0);
  assert_close(r.local_bytes_per_thread, 0, 0);
  /* The GPU's per-thread register limit caps the count. */
  ws_gpu *g = NULL;
  assert_ok_diag(ws_gpu_load(&g, "a100", &d), &d);
  g->limits.max_regs_per_thread = 5;
  ws_prof_kernel_resources(&r, m, ws_ptx_find_function(m, "ka"), g);
  assert_close(r.registers_per_thread, 5, 0);
  ws_gpu_free(g);
  ws_ptx_module_free(m);
  ws_diag_free(&d);
}

/* Thread t of every block stores t to out[t]: 7 warp instructions per
 * warp (ld.param, cvta, mov %tid, mul.wide, add, st, ret).  Registers
 * %r0..%r3 = 4 and %rd0..%rd3 = 4 x 2 = 8: 12. */
static const char store_tid[] =
    ".version 7.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd2, %rd2, %rd3;\n"
    "  st.global.u32 [%rd2], %r1;\n"
    "  ret;\n"
    "}\n";

/* 8 blocks of 64 threads (2 warps each), 128 dynamic shared bytes; `count`
 * elements of out (64 are enough: every block writes out[0..63]). */
static ws_launch_spec *spec_for(uint64_t count, ws_diag *d) {
  char text[512];
  snprintf(text, sizeof text,
           "{\"kernel\": \"k\", \"grid\": [8, 1, 1], \"block\": [64, 1, 1],"
           " \"dynamic_shared_bytes\": 128,"
           " \"args\": [{\"buffer\": \"out\", \"type\": \"u32\", \"count\": %llu}]}",
           (unsigned long long)count);
  ws_launch_spec *s = NULL;
  assert_ok_diag(ws_emu_launch_spec_parse(&s, text, "k.json", ".", d), d);
  return s;
}

/* A report section of a profile as a tree the caller deletes. */
static cJSON *section_of(const ws_profile *p, const char *name) {
  char *text = ws_profile_section_json(p, name);
  cJSON *s = text ? cJSON_Parse(text) : NULL;
  free(text);
  return s;
}

static const char *str_at(const ws_profile *p, const char *sec, const char *key) {
  static char buf[256];
  cJSON *s = section_of(p, sec);
  const cJSON *v = cJSON_GetObjectItem(s, key);
  snprintf(buf, sizeof buf, "%s", cJSON_IsString(v) ? v->valuestring : "");
  cJSON_Delete(s);
  return buf;
}

static double num_at(const ws_profile *p, const char *sec, const char *key) {
  cJSON *s = section_of(p, sec);
  const cJSON *v = cJSON_GetObjectItem(s, key);
  double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
  cJSON_Delete(s);
  return x;
}

/* The profile's JSON without sampling.KEY (cJSON_free it). */
static char *json_without(const ws_profile *p, const char *key) {
  char *text = ws_profile_to_json(p);
  cJSON *root = cJSON_Parse(text);
  free(text);
  cJSON_DeleteItemFromObject(cJSON_GetObjectItem(root, "sampling"), key);
  char *out = cJSON_Print(root);
  cJSON_Delete(root);
  return out;
}

typedef struct fixture {
  ws_diag d;
  ws_ptx_module *m;
  ws_gpu *g;
  ws_launch_spec *spec;
} fixture;

static void fx_open(fixture *fx, uint64_t count) {
  memset(fx, 0, sizeof *fx);
  assert_ok_diag(ws_ptx_parse(&fx->m, store_tid, strlen(store_tid), "k.ptx", &fx->d), &fx->d);
  assert_ok_diag(ws_gpu_load(&fx->g, "a100", &fx->d), &fx->d);
  fx->spec = spec_for(count, &fx->d);
}

static void fx_close(fixture *fx) {
  ws_emu_launch_spec_free(fx->spec);
  ws_gpu_free(fx->g);
  ws_ptx_module_free(fx->m);
  ws_diag_free(&fx->d);
}

/* Three of eight blocks sampled, the rest skipped: 3 blocks x 2 warps = 6
 * profiled warps of 7 instructions each; resources from the PTX with the
 * dynamic bytes added (0 static + 128). */
static void sampled_profile(void **s) {
  (void)s;
  fixture fx;
  fx_open(&fx, 64);
  ws_prof_options o = WS_PROF_OPTIONS_INIT;
  o.sample_blocks = 3;
  o.threads = 2;
  o.input = "k.ptx";
  ws_profile *p = NULL;
  ws_emu_stats st;
  assert_ok_diag(ws_prof_launch_spec(&p, &st, fx.m, fx.spec, fx.g, &o, &fx.d), &fx.d);
  assert_close(num_at(p, "instruction_mix", "total_per_warp"), 7, 0);
  assert_close(num_at(p, "sampling", "total_blocks"), 8, 0);
  assert_close(num_at(p, "sampling", "profiled_blocks"), 3, 0);
  assert_close(num_at(p, "sampling", "profiled_warps"), 6, 0);
  assert_string_equal(str_at(p, "sampling", "rest"), "skipped");
  assert_close(p->f.registers_per_thread, 12, 0);
  assert_close(p->f.shared_bytes_per_block, 128, 0);
  assert_close(p->f.local_bytes_per_thread, 0, 0);
  assert_non_null(strstr(str_at(p, "profiler", "resources_source"),
                         "PTX declarations: registers declared, capped at 255"));
  assert_string_equal(str_at(p, "profiler", "input"), "k.ptx");
  /* The emulator ran the sampled blocks only: 6 warps x 7 instructions. */
  assert_int_equal(st.blocks, 3);
  assert_int_equal(st.warp_insts, 42);
  assert_int_equal(st.threads, 2);
  ws_profile_free(p);
  fx_close(&fx);
}

/* The compiler's figures replace the PTX's (dynamic shared bytes still
 * added: 1000 + 128); the profile does not depend on the threads; the
 * functional rest runs all 8 blocks but profiles 3. */
static void resources_threads_rest(void **s) {
  (void)s;
  fixture fx;
  fx_open(&fx, 64);
  ws_prof_resources res = {32, 1000, 16};
  ws_prof_options o = WS_PROF_OPTIONS_INIT;
  o.sample_blocks = 3;
  o.resources = &res;
  o.resources_source = "ptxas -v -arch=sm_80";
  ws_profile *p1 = NULL, *p4 = NULL;
  o.threads = 1;
  assert_ok_diag(ws_prof_launch_spec(&p1, NULL, fx.m, fx.spec, fx.g, &o, &fx.d), &fx.d);
  assert_close(p1->f.registers_per_thread, 32, 0);
  assert_close(p1->f.shared_bytes_per_block, 1128, 0);
  assert_close(p1->f.local_bytes_per_thread, 16, 0);
  assert_string_equal(str_at(p1, "profiler", "resources_source"), "ptxas -v -arch=sm_80");
  o.threads = 4;
  o.functional_rest = 1;
  ws_emu_stats st;
  assert_ok_diag(ws_prof_launch_spec(&p4, &st, fx.m, fx.spec, fx.g, &o, &fx.d), &fx.d);
  assert_int_equal(st.blocks, 8);
  assert_int_equal(st.threads, 4);
  assert_close(num_at(p4, "sampling", "profiled_blocks"), 3, 0);
  assert_string_equal(str_at(p4, "sampling", "rest"), "run without profiling");
  /* Everything but the rest's description is the same. */
  char *a = json_without(p1, "rest"), *b = json_without(p4, "rest");
  assert_string_equal(a, b);
  cJSON_free(a);
  cJSON_free(b);
  ws_profile_free(p1);
  ws_profile_free(p4);
  fx_close(&fx);
}

/* The core takes a launch the caller prepared: the same profile as the
 * spec convenience. */
static void prepared_launch(void **s) {
  (void)s;
  fixture fx;
  fx_open(&fx, 64);
  ws_emu_program *prog = NULL;
  ws_emu_launch *L = NULL;
  assert_ok_diag(ws_emu_load(&prog, fx.m, "k", &fx.d), &fx.d);
  assert_ok_diag(ws_emu_launch_new(&L, prog, fx.spec, &fx.d), &fx.d);
  ws_prof_target t = {fx.m, prog, L, {8, 1, 1}, {64, 1, 1}, 128, NULL};
  ws_profile *p = NULL, *q = NULL;
  assert_ok_diag(ws_prof_launch(&p, NULL, &t, fx.g, NULL, &fx.d), &fx.d);
  assert_close(num_at(p, "sampling", "profiled_warps"), 16, 0); /* 8 blocks x 2 warps */
  assert_close(num_at(p, "instruction_mix", "total_per_warp"), 7, 0);
  assert_ok_diag(ws_prof_launch_spec(&q, NULL, fx.m, fx.spec, fx.g, NULL, &fx.d), &fx.d);
  char *a = ws_profile_to_json(p), *b = ws_profile_to_json(q);
  assert_string_equal(a, b);
  free(a);
  free(b);
  ws_profile_free(p);
  ws_profile_free(q);
  ws_emu_launch_free(L);
  ws_emu_program_free(prog);
  fx_close(&fx);
}

/* Thread t of block b reads its flag out[64 b + t] and, when it is 0, sets
 * it: 13 warp instructions per warp on fresh memory (ld.param, cvta, 2 mov,
 * mad, mul.wide, add, ld, setp, bra, mov, st, ret), 11 on memory a
 * previous run set (the bra skips the mov and st). */
static const char flag_ptx[] =
    ".version 7.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".visible .entry flag(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mov.u32 %r1, %ctaid.x;\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  mad.lo.u32 %r3, %r1, 64, %r2;\n"
    "  mul.wide.u32 %rd3, %r3, 4;\n"
    "  add.s64 %rd2, %rd2, %rd3;\n"
    "  ld.global.u32 %r4, [%rd2];\n"
    "  setp.ne.u32 %p1, %r4, 0;\n"
    "  @%p1 bra DONE;\n"
    "  mov.u32 %r5, 1;\n"
    "  st.global.u32 [%rd2], %r5;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

/* "auto" (sample_auto_budget) on flag_ptx, 8 blocks of 64 threads: the
 * sample of 3 blocks runs 3 x 2 warps x 13 = 78 instructions, an estimate
 * of 78 x 8 / 3 = 208 for the launch.  A budget of 208 profiles every
 * block, on memory the sample never touched (its blocks set their flags: a
 * full profile on that memory would count 11 for their 6 warps), byte for
 * byte the profile of sample_blocks 0; a budget of 207 keeps the sample,
 * byte for byte the profile of sample_blocks 3 plus sampling.auto with the
 * rule's numbers. */
static void auto_sampling(void **s) {
  (void)s;
  ws_diag d = WS_DIAG_INIT;
  ws_ptx_module *m = NULL;
  ws_gpu *g = NULL;
  ws_launch_spec *spec = NULL;
  assert_ok_diag(ws_ptx_parse(&m, flag_ptx, strlen(flag_ptx), "f.ptx", &d), &d);
  assert_ok_diag(ws_gpu_load(&g, "a100", &d), &d);
  static const char text[] =
      "{\"kernel\": \"flag\", \"grid\": [8, 1, 1], \"block\": [64, 1, 1],"
      " \"args\": [{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 512, \"init\": \"zero\"}]}";
  assert_ok_diag(ws_emu_launch_spec_parse(&spec, text, "f.json", ".", &d), &d);
  ws_prof_options o = WS_PROF_OPTIONS_INIT;
  o.threads = 2;
  ws_profile *all = NULL, *three = NULL, *a = NULL;
  ws_emu_stats st;
  assert_ok_diag(ws_prof_launch_spec(&all, NULL, m, spec, g, &o, &d), &d);
  assert_close(num_at(all, "instruction_mix", "total_per_warp"), 13, 0);
  o.sample_blocks = 3;
  assert_ok_diag(ws_prof_launch_spec(&three, NULL, m, spec, g, &o, &d), &d);

  o.sample_auto_budget = 208;
  assert_ok_diag(ws_prof_launch_spec(&a, &st, m, spec, g, &o, &d), &d);
  assert_int_equal(st.blocks, 8); /* the full run's figures */
  assert_int_equal(st.warp_insts, 208);
  char *x = ws_profile_to_json(a), *y = ws_profile_to_json(all);
  assert_string_equal(x, y);
  free(x);
  free(y);
  ws_profile_free(a);

  o.sample_auto_budget = 207;
  assert_ok_diag(ws_prof_launch_spec(&a, NULL, m, spec, g, &o, &d), &d);
  assert_close(num_at(a, "sampling", "profiled_blocks"), 3, 0);
  cJSON *sam = section_of(a, "sampling");
  const cJSON *au = cJSON_GetObjectItem(sam, "auto");
  assert_non_null(au);
  assert_close(cJSON_GetNumberValue(cJSON_GetObjectItem(au, "sample_blocks")), 3, 0);
  assert_close(cJSON_GetNumberValue(cJSON_GetObjectItem(au, "sample_warp_insts")), 78, 0);
  assert_close(cJSON_GetNumberValue(cJSON_GetObjectItem(au, "estimated_warp_insts")), 208, 0);
  assert_close(cJSON_GetNumberValue(cJSON_GetObjectItem(au, "budget_warp_insts")), 207, 0);
  cJSON_Delete(sam);
  x = json_without(a, "auto"); /* the same tree printed alike: nothing else differs */
  y = json_without(three, "auto");
  assert_string_equal(x, y);
  cJSON_free(x);
  cJSON_free(y);
  ws_profile_free(a);

  /* N >= the grid's blocks: every block, nothing to choose */
  o.sample_blocks = 8;
  o.sample_auto_budget = 1;
  assert_ok_diag(ws_prof_launch_spec(&a, NULL, m, spec, g, &o, &d), &d);
  x = ws_profile_to_json(a);
  y = ws_profile_to_json(all);
  assert_string_equal(x, y);
  free(x);
  free(y);
  ws_profile_free(a);
  ws_profile_free(all);
  ws_profile_free(three);
  ws_emu_launch_spec_free(spec);
  ws_gpu_free(g);
  ws_ptx_module_free(m);
  ws_diag_free(&d);
}

/* out[i] = in[i] for i < 8 x 64: 2 KB read (64 sectors), 2 KB written. */
static const char copy_ptx[] =
    ".version 7.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".visible .entry copy(.param .u64 in, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<5>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  .reg .f32 %f<2>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  cvta.to.global.u64 %rd3, %rd1;\n"
    "  cvta.to.global.u64 %rd4, %rd2;\n"
    "  mov.u32 %r1, %ctaid.x;\n"
    "  mov.u32 %r2, %ntid.x;\n"
    "  mov.u32 %r3, %tid.x;\n"
    "  mad.lo.s32 %r4, %r1, %r2, %r3;\n"
    "  mul.wide.u32 %rd5, %r4, 4;\n"
    "  add.s64 %rd6, %rd3, %rd5;\n"
    "  add.s64 %rd7, %rd4, %rd5;\n"
    "  ld.global.f32 %f1, [%rd6];\n"
    "  st.global.f32 [%rd7], %f1;\n"
    "  ret;\n"
    "}\n";

/* The L2 at the start (docs/profile.md, "Cold and warm"), on an A100
 * (40 MB of L2) and the copy above, its footprint 4 KB:
 *   cold: the 64 sectors of `in` come from DRAM, 2048 bytes;
 *   warm (the spec's "l2"): the footprint fits, its first reads hit: 0;
 *   two launches one after another on one device, the second started from
 *     the L2 the first left (exec): 2048, then 0; the first's dirty `out`
 *     sectors were counted by it, so both write 2048 bytes;
 *   a sampled profile given the carried L2 starts cold and says so. */
static void l2_start_conditions(void **s) {
  (void)s;
  ws_diag d = WS_DIAG_INIT;
  ws_ptx_module *m = NULL;
  ws_gpu *g = NULL;
  assert_ok_diag(ws_ptx_parse(&m, copy_ptx, strlen(copy_ptx), "copy.ptx", &d), &d);
  assert_ok_diag(ws_gpu_load(&g, "a100", &d), &d);
  for (int warm = 0; warm < 2; warm++) {
    char text[512];
    snprintf(text, sizeof text,
             "{\"kernel\": \"copy\", \"grid\": [8, 1, 1], \"block\": [64, 1, 1], \"l2\": \"%s\","
             " \"args\": [{\"buffer\": \"in\", \"type\": \"f32\", \"count\": 512},"
             " {\"buffer\": \"out\", \"type\": \"f32\", \"count\": 512}]}",
             warm ? "warm" : "cold");
    ws_launch_spec *sp = NULL;
    assert_ok_diag(ws_emu_launch_spec_parse(&sp, text, "copy.json", ".", &d), &d);
    ws_profile *p = NULL;
    assert_ok_diag(ws_prof_launch_spec(&p, NULL, m, sp, g, NULL, &d), &d);
    assert_close(p->f.dram_read_bytes, warm ? 0 : 2048, 0);
    assert_close(p->f.dram_write_bytes, 2048, 0);
    ws_profile_free(p);
    ws_emu_launch_spec_free(sp);
  }
  /* two raw launches on one device, as the CUDA runtime makes them */
  ws_emu_device *dev = NULL;
  ws_emu_program *prog = NULL;
  assert_ok_diag(ws_emu_device_new(&dev, NULL, &d), &d);
  assert_ok_diag(ws_emu_load(&prog, m, "copy", &d), &d);
  uint64_t in, out;
  assert_ok_diag(ws_emu_mem_alloc(dev, 2048, "in", &in, &d), &d);
  assert_ok_diag(ws_emu_mem_alloc(dev, 2048, "out", &out, &d), &d);
  uint64_t params[2] = {in, out};
  ws_prof_l2 *left = NULL;
  for (int k = 0; k < 3; k++) {
    ws_emu_launch_config c = {{8, 1, 1}, {64, 1, 1}, 0, params, sizeof params};
    ws_emu_launch *L = NULL;
    assert_ok_diag(ws_emu_launch_raw(&L, dev, prog, &c, &d), &d);
    ws_prof_target t = {m, prog, L, {8, 1, 1}, {64, 1, 1}, 0, NULL};
    ws_prof_options o = WS_PROF_OPTIONS_INIT;
    ws_prof_l2 *next = NULL;
    o.l2_start = left ? WS_PROF_L2_CARRIED : WS_PROF_L2_COLD;
    o.l2_carried = left;
    o.l2_end = &next;
    if (k == 2) o.sample_blocks = 4; /* a sample cannot take it over */
    ws_profile *p = NULL;
    assert_ok_diag(ws_prof_launch(&p, NULL, &t, g, &o, &d), &d);
    assert_close(p->f.dram_read_bytes, k == 1 ? 0 : 2048, 0);
    assert_close(p->f.dram_write_bytes, 2048, 0);
    cJSON *caches = section_of(p, "caches");
    const cJSON *st = cJSON_GetObjectItem(cJSON_GetObjectItem(caches, "l2_start"), "condition");
    assert_string_equal(st->valuestring, k == 0 ? "cold" : k == 1 ? "carried" : "cold");
    cJSON_Delete(caches);
    if (k == 2) assert_null(next); /* a sample leaves no L2 to carry */
    ws_prof_l2_free(left);
    left = next;
    ws_profile_free(p);
    ws_emu_launch_free(L);
  }
  ws_prof_l2_free(left);
  ws_emu_program_free(prog);
  ws_emu_device_free(dev);
  ws_gpu_free(g);
  ws_ptx_module_free(m);
  ws_diag_free(&d);
}

static void expect_diag(const ws_diag *d, const char *want) {
  char *t = ws_diag_format(d);
  if (!t || !strstr(t, want)) {
    print_error("expected '%s' in:\n%s\n", want, t ? t : "");
    fail();
  }
  free(t);
}

/* Errors: options of another version, a kernel the module lacks, a kernel
 * that faults (out has 4 elements, thread 4 writes past them). */
static void errors(void **s) {
  (void)s;
  fixture fx;
  fx_open(&fx, 4);
  ws_profile *p = NULL;
  ws_prof_options o = WS_PROF_OPTIONS_INIT;
  o.version = 99;
  assert_int_equal(ws_prof_launch_spec(&p, NULL, fx.m, fx.spec, fx.g, &o, &fx.d), WS_EINVAL);
  assert_null(p);
  expect_diag(&fx.d, "ws_prof_options version 99");
  ws_diag_clear(&fx.d);
  free(fx.spec->kernel);
  fx.spec->kernel = strdup("nope");
  assert_int_not_equal(ws_prof_launch_spec(&p, NULL, fx.m, fx.spec, fx.g, NULL, &fx.d), WS_OK);
  assert_null(p);
  expect_diag(&fx.d, "nope");
  ws_diag_clear(&fx.d);
  free(fx.spec->kernel);
  fx.spec->kernel = strdup("k");
  ws_emu_stats st;
  assert_int_equal(ws_prof_launch_spec(&p, &st, fx.m, fx.spec, fx.g, NULL, &fx.d), WS_EFAULT);
  assert_null(p);
  assert_true(st.blocks >= 1);
  fx_close(&fx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(workers_rule),    cmocka_unit_test(resources_two_kernels),
      cmocka_unit_test(sampled_profile), cmocka_unit_test(resources_threads_rest),
      cmocka_unit_test(prepared_launch), cmocka_unit_test(errors),
      cmocka_unit_test(l2_start_conditions), cmocka_unit_test(auto_sampling),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
