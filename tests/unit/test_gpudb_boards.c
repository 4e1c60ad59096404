/* test_gpudb_boards.c — issue 13's acceptance check for today's GPUs (and
 * issue 20's boards people own): five facts of every board added to the
 * database (compute capability, SMs, FP32 cores per SM, clock, DRAM
 * bandwidth) against the values typed here from the cited pages (not from
 * the GPU files), and each fact's "source" in the file naming that page;
 * the memory facts of the boards NVBench reported on; the bus, memory clock and
 * L2 the spec pages give for the Pascal, Volta, Maxwell and Kepler boards; the
 * tensor-core throughputs of the L40S and B200 against their pages' TFLOPS. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "warpsight/gpu.h"

typedef struct board {
  const char *name;
  int cc_major, cc_minor;
  int sms, cores;
  double clock_ghz, bw_gbs;
  const char *cited; /* pieces of sources ('|'-separated); each checked fact names one */
} board;

/* Typed from the pages (docs/gpu-schema.md, "Today's GPUs", lists them). */
static const board boards[] = {
    /* sysrqmts A10 PCIe: CUDA 8.6, 72 SMs, 9216 shaders, boost 1695 MHz, 600.2 GB/s */
    {"a10", 8, 6, 72, 128, 1.695, 600.2, "sysrqmts.com"},
    /* sysrqmts A30 PCIe: CUDA 8.0, 56 SMs, 3584 shaders, boost 1440 MHz, 933.1 GB/s */
    {"a30", 8, 0, 56, 64, 1.44, 933.1, "sysrqmts.com"},
    /* fpsbench L4: CUDA 8.9, 7424 shading units (58 x 128), boost 2040 MHz, 300.1 GB/s */
    {"l4", 8, 9, 58, 128, 2.04, 300.1, "fpsbench.com"},
    /* itcreations L40S: 18,176 cores, 142 RT cores, boost 2520 MHz, 864 GB/s; CC list 8.9 */
    {"l40s", 8, 9, 142, 128, 2.52, 864.0, "itcreations.com"},
    /* spicedreamphone A40 PCIe: CUDA 8.6, 84 SMs, 10752, boost 1740 MHz, 695.8 GB/s */
    {"a40", 8, 6, 84, 128, 1.74, 695.8, "spicedreamphone.com"},
    /* sysrqmts RTX A4000: CUDA 8.6, 48 SMs, 6144, boost 1560 MHz, 448.0 GB/s */
    {"rtx-a4000", 8, 6, 48, 128, 1.56, 448.0, "sysrqmts.com"},
    /* sysrqmts RTX A6000: 84 SMs, 10752, boost 1800 MHz, 768.0 GB/s; CC list 8.6 */
    {"rtx-a6000", 8, 6, 84, 128, 1.8, 768.0, "sysrqmts.com"},
    /* topcpu TITAN RTX: 72 SMs, 4608, boost 1770 MHz, 672.0 GB/s; CC 7.5 (gpu_params.csv) */
    {"titan-rtx", 7, 5, 72, 64, 1.77, 672.0, "topcpu.net"},
    /* thegpu.guru RTX 2060 FE: 30 SM, 1920 ALUs, boost 1.68 GHz; alldbin 336.0 GB/s, CUDA 7.5 */
    {"rtx2060", 7, 5, 30, 64, 1.68, 336.0, "thegpu.guru|alldbin.com"},
    /* nexthardware RTX 2080 Ti: 4352 cores, boost 1545 MHz, 616 GB/s; 68 SMs (deviceQuery) */
    {"rtx2080ti", 7, 5, 68, 64, 1.545, 616.0, "nexthardware.com|DEBDEEP-PROPS"},
    /* informatyk-szczecin GTX 1650: 14 SM, 896 cores, 1665 MHz, 128 GB/s; CUDA 7.5 (topcpu) */
    {"gtx1650", 7, 5, 14, 64, 1.665, 128.0, "informatyk-szczecin.com"},
    /* sysrqmts RTX 3060: CUDA 8.6, 28 SMs, 3584, boost 1777 MHz, 360.0 GB/s */
    {"rtx3060", 8, 6, 28, 128, 1.777, 360.0, "sysrqmts.com"},
    /* wccftech: 38 SMs, 4864 cores; cputronic: boost 1665 MHz, 448.0 GB/s; CC list 8.6 */
    {"rtx3060ti", 8, 6, 38, 128, 1.665, 448.0, "cputronic.com|wccftech.com"},
    /* gamersky: 48 SMs x 128 = 6144; 608 GB/s (praeco-medii-aevi.de); 1770 MHz (estimate) */
    {"rtx3070ti", 8, 6, 48, 128, 1.77, 608.0, "gamersky.com|praeco-medii-aevi.de|estimate"},
    /* sirusgaming (NVIDIA launch table): 8704 cores (68 x 128), 1710 MHz, 760 GB/s */
    {"rtx3080", 8, 6, 68, 128, 1.71, 760.0, "sirusgaming.com"},
    /* sirusgaming: 10496 cores, 1700 MHz, 936 GB/s; 82 SMs (gpu_params.csv AMALI-RTX3090) */
    {"rtx3090", 8, 6, 82, 128, 1.7, 936.0, "sirusgaming.com|AMALI-RTX3090"},
    /* hmc-tech RTX 4090: 128 SMs, 16,384 shaders, boost 2.52 GHz; guru3d: 1,008 GB/s */
    {"rtx4090", 8, 9, 128, 128, 2.52, 1008.0, "hmc-tech.com|guru3d.com"},
    /* gpu_params.csv T4 row (FPS-M60-T4): CC 7.5, 40 SMs x 64, 1590 MHz, 320 GB/s */
    {"t4", 7, 5, 40, 64, 1.59, 320.0, "FPS-M60-T4"},
    /* gpu_params.csv H200 row: CC 9.0, 132 SMs x 128, 1980 MHz (HMC-TECH), 4.8 TB/s (MASSIVEGRID) */
    {"h200", 9, 0, 132, 128, 1.98, 4800.0, "gpu_params.csv"},
    /* hmc-tech B200: 148 SMs, 18,944 shaders, boost 1.98 GHz, 7.7 TB/s; gpu-ark.ru CC 10.0 */
    {"b200", 10, 0, 148, 128, 1.98, 7700.0, "hmc-tech.com"},
    /* Linux Format (pocketmags) RTX 5090: 170 SMs, 21,760 shaders, 2,407 MHz, 1,792 GB/s; CC list 12.0 */
    {"rtx5090", 12, 0, 170, 128, 2.407, 1792.0, "pocketmags.com"},
    /* The boards people own (issue 20, item 1).
     * NVBench report of a GTX 1650: SM 750, 14 SMs, 192 GB/s; pcpartdb GDDR6 board: boost 1590 MHz */
    {"gtx1650-gddr6", 7, 5, 14, 64, 1.59, 192.0, "pcpartdb.com|NVBench"},
    /* NVBench report of an RTX 3060 Laptop GPU: SM 860, 30 SMs, 1282 MHz, 288 GB/s */
    {"rtx3060-laptop", 8, 6, 30, 128, 1.282, 288.0, "NVBench"},
    /* fpsbench RTX 4060: CUDA 8.9, 24 SMs, 3,072 shaders, boost 2460 MHz, 272.0 GB/s */
    {"rtx4060", 8, 9, 24, 128, 2.46, 272.0, "fpsbench.com"},
    /* thefpsreview RTX 4070: 46 SMs, 5,888 cores, boost 2475 MHz (FE), 504 GB/s; fpsbench CUDA 8.9 */
    {"rtx4070", 8, 9, 46, 128, 2.475, 504.0, "thefpsreview.com|fpsbench.com"},
    /* fpsbench RTX 4080: CUDA 8.9, 76 SMs, 9,728 shaders, boost 2505 MHz, 716.8 GB/s */
    {"rtx4080", 8, 9, 76, 128, 2.505, 716.8, "fpsbench.com"},
    /* pcpartdb L40: 18,176 cores (142 x 128), boost 2,490 MHz, 864 GB/s; alldbin L40G CUDA 8.9 */
    {"l40", 8, 9, 142, 128, 2.49, 864.0, "pcpartdb.com"},
    /* siliconcat A2: 10 SMs; cputronic 1280 shaders, boost 1770 MHz; 200.1 GB/s estimated */
    {"a2", 8, 6, 10, 128, 1.77, 200.1, "siliconcat.net|cputronic.com|estimate"},
    /* chips and cheese H100 PCIe: 114 SMs, 1755 MHz; kayzee blog 2039 GB/s */
    {"h100-pcie", 9, 0, 114, 128, 1.755, 2039.0, "CHIPSCHEESE-H100|KAYZEE-BLOG"},
    /* sysrqmts A100 PCIe: CUDA 8.0, 108 SMs, 1410 MHz, 1,555 GB/s (thundercompute table the same) */
    {"a100-pcie-40gb", 8, 0, 108, 64, 1.41, 1555.0, "sysrqmts.com|thundercompute.com"},
    /* thundercompute: 6,912 cores, 1,410 MHz, A100 PCIe 80GB 1,935 GB/s, SXM 80GB 2,039 GB/s */
    {"a100-pcie-80gb", 8, 0, 108, 64, 1.41, 1935.0, "thundercompute.com"},
    {"a100-sxm-80gb", 8, 0, 108, 64, 1.41, 2039.0, "thundercompute.com"},
    /* The boards of issue 20's reference table (gpu_params.csv) that had no file, and the
     * Pascal boards papers measure on.
     * sysrqmts P100 PCIe 16 GB: CUDA 6.0, 56 SMs, 3584 shaders, 1190/1329 MHz, 732.2 GB/s */
    {"p100-pcie", 6, 0, 56, 64, 1.329, 732.2, "SYS-K40-P100|sysrqmts.com"},
    /* videocardz Tesla P100 SMX2: 3584 CUDAs, SMP 56, 1328/1480 MHz, 720.9 GB/s */
    {"p100-sxm2", 6, 0, 56, 64, 1.48, 720.9, "videocardz.net"},
    /* fudzilla GTX 1080: four GPCs of five SMs, 2560 cores, boost 1733 MHz, 320GB/s; CC 6.1 */
    {"gtx1080", 6, 1, 20, 128, 1.733, 320.0, "fudzilla.net"},
    /* vortez GTX 1080 Ti: 28 shader modules, 3584 cores, boost 1582 MHz, 484 GB/s */
    {"gtx1080ti", 6, 1, 28, 128, 1.582, 484.0, "vortez.net"},
    /* gamerevolution TITAN Xp: 30 SMs, 3,840 cores, boost 1,582MHz, 547.7 GBps */
    {"titan-xp", 6, 1, 30, 128, 1.582, 547.7, "gamerevolution"},
    /* geektopia TITAN V: 80 SM x 64, 1200/1455 MHz; newsnowgr 652.8 GB/s; CC 7.0 */
    {"titan-v", 7, 0, 80, 64, 1.455, 652.8, "geektopia.es|newsnowgr.com"},
    /* gpu_params.csv M60 row (SYS-M60): CC 5.2, 16 SMM x 128, 557/1178 MHz, 160.4 GB/s per GPU */
    {"m60", 5, 2, 16, 128, 1.178, 160.4, "SYS-M60"},
    /* sysrqmts K80: CUDA 3.7, 13 SMX, 2496 shaders, 240.6 GB/s; anandtech: boost 875 MHz */
    {"k80", 3, 7, 13, 192, 0.875, 240.6, "sysrqmts.com|anandtech.com"},
    /* gamegpu GTX 1070: 3 GPCs x 5 SMs (1920 = 3x5x2x64), 1506/1683 MHz, 256 GB/s */
    {"gtx1070", 6, 1, 15, 128, 1.683, 256.0, "gamegpu.com|gamersnexus.net"},
    /* vortez GTX 1060 FE: SMs 10, 1280 cores, boost 1708 MHz, 192 GB/sec; alldbin CUDA 6.1 */
    {"gtx1060-6gb", 6, 1, 10, 128, 1.708, 192.0, "vortez.net"},
    /* techwarrant (NVIDIA's table): P40 3840 cores, boost 1531MHz, 346GB/s; alldbin CUDA 6.1 */
    {"p40", 6, 1, 30, 128, 1.531, 346.0, "techwarrant.com"},
    /* the same table: P4 2560 cores, boost 1063MHz, 192GB/s */
    {"p4", 6, 1, 20, 128, 1.063, 192.0, "techwarrant.com"},
    /* pl.gamegpu RTX 2070: 36 SMs, 2304 cores, boost 1620 MHz (reference), 448 GB/s */
    {"rtx2070", 7, 5, 36, 64, 1.62, 448.0, "gamegpu.com"},
    /* gamegpu RTX 2080: 46 of TU104's 48 SMs, 2944 cores, boost 1710 MHz, 448 GB/s */
    {"rtx2080", 7, 5, 46, 64, 1.71, 448.0, "gamegpu.com"},
    /* sysrqmts V100 PCIe 16 GB: CUDA 7.0, 80 SMs, 5120, 1245/1380 MHz, 897.0 GB/s */
    {"v100-pcie", 7, 0, 80, 64, 1.38, 897.0, "sysrqmts.com"},
};

/* What the NVBench device reports say of the boards they measured (typed
 * from the reports, R100001/Programming-Massively-Parallel-Processors,
 * Performance-Tests-NvBench): L2 Cache Size, bus width and the "DDR @"
 * memory clock; the database's L2 is what CUDA reports for the board, not
 * the spec sheet's (RTX 3060: 2304 KiB, not 3 MB; RTX 3060 Ti: 3072 KiB,
 * not 4 MB). */
static const struct {
  const char *name;
  int l2_kib, bus_bits;
  double mem_clock_mhz;
} reports[] = {
    {"gtx1650-gddr6", 1024, 128, 6001}, {"rtx2060", 3072, 192, 7001},
    {"rtx3060", 2304, 192, 7501},       {"rtx3060ti", 3072, 256, 7001},
    {"rtx3070ti", 4096, 256, 9501},     {"rtx3080", 5120, 320, 9501},
    {"rtx3060-laptop", 3072, 192, 6001},
};

/* What the spec pages cited in the files say of the boards of issue 20's
 * reference table (typed from the pages; 0: the page gives none, the
 * loader derives it): L2 KiB, bus bits, the memory clock CUDA reports. */
static const struct {
  const char *name;
  int l2_kib, bus_bits;
  double mem_clock_mhz;
} sheets[] = {
    {"p100-pcie", 4096, 4096, 715}, /* sysrqmts: 4 MB, 4096 bit, 715 MHz */
    {"p100-sxm2", 4096, 4096, 704}, /* videocardz: 4096-bit, 704 MHz; L2 the PCIe board's */
    {"gtx1080", 2048, 256, 0},      /* fudzilla: 2MB of L2, 256-bit */
    {"gtx1080ti", 2816, 352, 5505}, /* vortez: 2816 KB, 5505 MHz; gecid: 352-bit */
    {"titan-xp", 3072, 384, 0},     /* gamegpu: full GP102, 384-bit, 3072 KB */
    {"titan-v", 4608, 3072, 850},   /* geektopia: 4.5 MB, 3072 bits; newsnowgr: 850 MHz */
    {"m60", 2048, 256, 0},          /* gpu_params.csv SYS-M60: 2 MB, 256-bit */
    {"k80", 1536, 384, 0},          /* sysrqmts: 1536 KB, 384 bit */
    {"gtx1070", 2048, 256, 0},      /* gamegpu: 256 bits; L2 GP104's (estimate) */
    {"gtx1060-6gb", 1536, 192, 0},  /* vortez: 1536 KB, 192-bit */
    {"p40", 3072, 384, 0},          /* techwarrant: 384bit; L2 the full GP102's (estimate) */
    {"p4", 2048, 256, 0},           /* techwarrant: 256bit; L2 the full GP104's (estimate) */
    {"rtx2070", 4096, 256, 0},      /* firstxw: 4 MB; gamegpu: 256 bit */
    {"rtx2080", 4096, 256, 0},      /* cputronic: 4MB; gamegpu: 256 bit */
    {"v100-pcie", 6144, 4096, 876}, /* sysrqmts: 6 MB, 4096 bit, 876 MHz */
};

static void memory_facts(const char *name, int l2_kib, int bus_bits, double mem_clock_mhz) {
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g;
  if (ws_gpu_load(&g, name, &d) != WS_OK) fail_msg("%s does not load", name);
  if (g->cache.l2_bytes != l2_kib * 1024 || g->dram.bus_bits != bus_bits ||
      (mem_clock_mhz > 0 && g->dram.clock_mhz != mem_clock_mhz))
    fail_msg("%s: L2 %d B, bus %d, memory clock %g; the source says %d KiB, %d, %g", g->name,
             g->cache.l2_bytes, g->dram.bus_bits, g->dram.clock_mhz, l2_kib, bus_bits,
             mem_clock_mhz);
  ws_gpu_free(g);
  ws_diag_free(&d);
}

static void device_reports(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof reports / sizeof reports[0]; i++)
    memory_facts(reports[i].name, reports[i].l2_kib, reports[i].bus_bits, reports[i].mem_clock_mhz);
  for (size_t i = 0; i < sizeof sheets / sizeof sheets[0]; i++)
    memory_facts(sheets[i].name, sheets[i].l2_kib, sheets[i].bus_bits, sheets[i].mem_clock_mhz);
}

/* The source of a top-level fact, as the serialiser writes the GPU. */
static const char *source_of(const ws_gpu *g, const char *key) {
  static char buf[1024];
  char *text = ws_gpu_to_json(g);
  cJSON *root = text ? cJSON_Parse(text) : NULL;
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
  const cJSON *s = v ? cJSON_GetObjectItemCaseSensitive(v, "source") : NULL;
  snprintf(buf, sizeof buf, "%s", cJSON_IsString(s) ? s->valuestring : "");
  cJSON_Delete(root);
  free(text);
  return buf;
}

/* 1 if `src` contains one of the '|'-separated pieces of `any`. */
static int cites(const char *src, const char *any) {
  char buf[160];
  snprintf(buf, sizeof buf, "%s", any);
  for (char *tok = strtok(buf, "|"); tok; tok = strtok(NULL, "|"))
    if (strstr(src, tok)) return 1;
  return 0;
}

static void five_facts(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
    const board *b = &boards[i];
    ws_diag d = WS_DIAG_INIT;
    ws_gpu *g;
    int r = ws_gpu_load(&g, b->name, &d);
    if (r != WS_OK) fail_msg("%s does not load", b->name);
    if (g->cc_major != b->cc_major || g->cc_minor != b->cc_minor || g->sms != b->sms ||
        g->cores_per_sm != b->cores)
      fail_msg("%s: cc %d.%d sms %d cores %d; the source says %d.%d, %d, %d", b->name,
               g->cc_major, g->cc_minor, g->sms, g->cores_per_sm, b->cc_major, b->cc_minor,
               b->sms, b->cores);
    assert_close(g->clock_ghz, b->clock_ghz, 1e-12);
    assert_close(g->mem_bandwidth_gbs, b->bw_gbs, 1e-12);
    /* Each checked fact names one of the board's cited pages. */
    static const char *const cited[] = {"sms", "clock_ghz", "mem_bandwidth_gbs"};
    for (size_t k = 0; k < 3; k++)
      if (!cites(source_of(g, cited[k]), b->cited))
        fail_msg("%s.%s: source '%s' cites none of %s", b->name, cited[k],
                 source_of(g, cited[k]), b->cited);
    assert_true(*source_of(g, "compute_capability"));
    assert_true(*source_of(g, "cores_per_sm"));
    ws_gpu_free(g);
    ws_diag_free(&d);
  }
}

/* Tensor-core throughputs (task tensor-more): each page's dense TFLOPS or
 * TOPS, typed from the page, over the SMs x clock of the board above (the
 * file's sms and clock_ghz), rounded; the hand-computed per-clock values are
 * in the comments. The B200 page quotes its figures at the 1.86 GHz tensor
 * clock (8192 FP16 per clock there); the file gives them per 1.98 GHz clock,
 * as the H100 SXM's does, so that ops / (value x clock) is the page's rate. */
static const struct {
  const char *name, *page;
  int sms;
  double clock_ghz;
  double tflops[6]; /* fp16_f32acc, fp16_f16acc, bf16, tf32, fp8, int8 (TOPS) */
  double per_clock[6];
} rated[] = {
    /* hmc-tech L40S (2520MHz column): FP16 366.43 Tensor (FP32 Accumulate) and
     * (FP16 Accumulate), BF16 366.43, TF32 183.21, FP8 732.86, INT8 732.86 TOPS:
     * 366.43e3 / (142 x 2.52) = 1024.0; 183.21e3 / 357.84 = 512.0; 732.86e3 / 357.84 = 2048.0 */
    {"l40s", "hmc-tech.com/gpu/nvidia-l40s-vs-nvidia-t40", 142, 2.52,
     {366.43, 366.43, 366.43, 183.21, 732.86, 732.86}, {1024, 1024, 1024, 512, 2048, 2048}},
    /* hmc-tech B200: Tensor FP16-32 and FP16-16 2.25 PFLOPS, BF16 2.25, TF32 1.13,
     * FP8-32 4.5 PFLOPS, INT8 4.5 POPS: 2250e3 / (148 x 1.98) = 7678.1;
     * 1130e3 / 293.04 = 3856.1; 4500e3 / 293.04 = 15356.3 */
    {"b200", "hmc-tech.com/gpus/nvidia-b200-vs-nvidia-b100", 148, 1.98,
     {2250, 2250, 2250, 1130, 4500, 4500}, {7678, 7678, 7678, 3856, 15356, 15356}},
};

/* The source of tensor.KEY, as the serialiser writes the GPU. */
static const char *tensor_source(const ws_gpu *g, const char *key) {
  static char buf[1024];
  char *text = ws_gpu_to_json(g);
  cJSON *root = text ? cJSON_Parse(text) : NULL;
  const cJSON *t = cJSON_GetObjectItemCaseSensitive(root, "tensor");
  const cJSON *v = t ? cJSON_GetObjectItemCaseSensitive(t, key) : NULL;
  const cJSON *s = v ? cJSON_GetObjectItemCaseSensitive(v, "source") : NULL;
  snprintf(buf, sizeof buf, "%s", cJSON_IsString(s) ? s->valuestring : "");
  cJSON_Delete(root);
  free(text);
  return buf;
}

static void tensor_rates(void **state) {
  (void)state;
  static const char *const keys[6] = {"fp16_f32acc", "fp16_f16acc", "bf16", "tf32", "fp8", "int8"};
  for (size_t i = 0; i < sizeof rated / sizeof rated[0]; i++) {
    ws_diag d = WS_DIAG_INIT;
    ws_gpu *g;
    if (ws_gpu_load(&g, rated[i].name, &d) != WS_OK) fail_msg("%s does not load", rated[i].name);
    assert_int_equal(g->sms, rated[i].sms);
    assert_close(g->clock_ghz, rated[i].clock_ghz, 1e-12);
    const double got[6] = {g->tensor.fp16_f32acc, g->tensor.fp16_f16acc, g->tensor.bf16,
                           g->tensor.tf32,        g->tensor.fp8,         g->tensor.int8};
    for (int k = 0; k < 6; k++) {
      double q = rated[i].tflops[k] * 1e3 / (rated[i].sms * rated[i].clock_ghz);
      if (got[k] != rated[i].per_clock[k] || fabs(got[k] - q) > 0.5)
        fail_msg("%s: tensor.%s = %g; the page's %g T/s over %d SMs x %g GHz is %.1f (typed: %g)",
                 rated[i].name, keys[k], got[k], rated[i].tflops[k], rated[i].sms,
                 rated[i].clock_ghz, q, rated[i].per_clock[k]);
      if (!strstr(tensor_source(g, keys[k]), rated[i].page))
        fail_msg("%s.tensor.%s: source '%s' does not cite %s", rated[i].name, keys[k],
                 tensor_source(g, keys[k]), rated[i].page);
    }
    ws_gpu_free(g);
    ws_diag_free(&d);
  }
}

/* The database holds at least 40 boards (issue 13). */
static void forty_boards(void **state) {
  (void)state;
  assert_true(ws_gpu_db_count() >= 40);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(five_facts), cmocka_unit_test(forty_boards),
                                     cmocka_unit_test(device_reports),
                                     cmocka_unit_test(tensor_rates)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
