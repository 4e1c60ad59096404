/*
 * test_partitions.c — DRAM partitions: the GPU facts (memory.bus_bits ->
 * memory.dram_partitions, memory.interleave_bytes; src/gpu/derive.c), the
 * address-to-partition hash and the replay's partition imbalance
 * (src/profile/replay.c; docs/profile.md, "DRAM partitions"), every value
 * worked out by hand in the comments.
 */
#include <string.h>

#include "profile/replay.h"
#include "testutil.h"
#include "warpsight/gpu.h"

/* A CC 3.0 test machine of 8 SMs, open for more members (a memory section). */
#define GPU_T                                                                                \
  "{\"schema\":\"warpsight-gpu/1\",\"name\":\"t\",\"compute_capability\":\"3.0\",\"sms\":8," \
  "\"cores_per_sm\":192,\"clock_ghz\":1,\"mem_bandwidth_gbs\":100"

/* gtx680: bus_bits 256 (data sheet) -> 256 / 64 = 4 partitions, interleave
 * 256 B (estimate); k20: 320 / 64 = 5.  A file that gives the partitions
 * keeps them; one without a bus width has none (0: not profiled). */
static void facts_derived(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g;
  assert_ok_diag(ws_gpu_load(&g, "gtx680", &d), &d);
  assert_int_equal(g->dram.bus_bits, 256);
  assert_int_equal(g->dram.partitions, 4);
  assert_int_equal(g->dram.interleave_bytes, 256);
  ws_gpu_free(g);
  assert_ok_diag(ws_gpu_load(&g, "k20", &d), &d);
  assert_int_equal(g->dram.partitions, 5);
  ws_gpu_free(g);
  g = ws_test_gpu(GPU_T ",\"memory\":{\"bus_bits\":{\"value\":256,\"source\":\"t\"},"
                  "\"dram_partitions\":{\"value\":8,\"source\":\"t\"},\"interleave_bytes\":512}}");
  assert_int_equal(g->dram.partitions, 8);
  assert_int_equal(g->dram.interleave_bytes, 512);
  ws_gpu_free(g);
  g = ws_test_gpu(GPU_T "}");
  assert_int_equal(g->dram.partitions, 0);
  ws_gpu_free(g);
  static const char bad[] = GPU_T ",\"memory\":{\"dram_partitions\":0}}";
  assert_int_equal(ws_gpu_load_json(&g, bad, "t.json", &d), WS_EINVAL);
  assert_non_null(strstr(d.items[d.count - 1].message, "dram_partitions"));
  ws_diag_free(&d);
}

/* The hash: chunk c = addr / 256, base-4 digits of c summed, mod 4 (P = 4,
 * 2 bits); P = 5 uses base 8 (3 bits) mod 5.
 *   addr 0 -> c 0 -> 0;  768 -> c 3 -> 3;  1024 -> c 4 = (1,0) -> 1;
 *   1280 -> c 5 = (1,1) -> 2;  4096 -> c 16 = (1,0,0) -> 1;
 *   7936 -> c 31 = (1,3,3) -> 7 mod 4 = 3;
 *   P 5: 2048 -> c 8 = (1,0)_8 -> 1;  3328 -> c 13 = (1,5)_8 -> 6 mod 5 = 1;
 *   P 1: always 0. */
static void hash_by_hand(void **state) {
  (void)state;
  assert_int_equal(ws_prof_rp_partition(0, 4, 256), 0);
  assert_int_equal(ws_prof_rp_partition(768, 4, 256), 3);
  assert_int_equal(ws_prof_rp_partition(1024, 4, 256), 1);
  assert_int_equal(ws_prof_rp_partition(1024 + 255, 4, 256), 1);
  assert_int_equal(ws_prof_rp_partition(1280, 4, 256), 2);
  assert_int_equal(ws_prof_rp_partition(4096, 4, 256), 1);
  assert_int_equal(ws_prof_rp_partition(7936, 4, 256), 3);
  assert_int_equal(ws_prof_rp_partition(2048, 5, 256), 1);
  assert_int_equal(ws_prof_rp_partition(3328, 5, 256), 1);
  assert_int_equal(ws_prof_rp_partition(3328, 1, 256), 0);
}

/* The hash against its definition written here (the chunk's base-2^b
 * digits summed one by one, mod P): every P from 1 to 300 and some larger
 * (4,096, the database's limit, and beyond: 2^16 + 1, 2^31 + 5), chunks
 * of 256, 96 and 4,096 bytes, addresses small and with high bits set (up
 * to 64 bits: every digit position). */
static void hash_matches_definition(void **state) {
  (void)state;
  static const uint32_t big[] = {1000, 4096, 65537, 2147483653u};
  static const uint32_t il[] = {256, 96, 4096};
  uint64_t x = 88172645463325252ull;
  for (uint32_t pi = 0; pi < 300 + sizeof big / sizeof big[0]; pi++) {
    const uint32_t P = pi < 300 ? pi + 1 : big[pi - 300];
    unsigned b = 1;
    while ((1ull << b) < P) b++;
    for (int k = 0; k < 60; k++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      const uint64_t addr = k % 3 == 0 ? x : k % 3 == 1 ? x >> 20 : x >> (k % 64);
      const uint32_t G = il[(k / 3) % 3];
      uint64_t c = addr / G, sum = 0;
      for (; c; c >>= b) sum += c & ((1ull << b) - 1);
      const uint32_t want = P <= 1 ? 0 : (uint32_t)(sum % P);
      if (ws_prof_rp_partition(addr, P, G) != want) {
        print_error("P %u, interleave %u, address %#llx: %u, by the definition %u\n", P, G,
                    (unsigned long long)addr, ws_prof_rp_partition(addr, P, G), want);
        fail();
      }
    }
  }
}

/* A window's imbalance, g = 8 sectors per chunk, P = 4:
 *   {16,16,16,16}, n 64: 16 / max(min(64, 8), 64 / 4) = 1;
 *   {64,0,0,0}: 64 / 16 = 4 = P (every sector in one partition);
 *   {8,0,0,0}, n 8: 8 / max(8, 2) = 1 (one chunk: a contiguous run does that);
 *   {12,4,0,0}, n 16: 12 / max(8, 4) = 1.5;  {1,1,1,1}, n 4: 1 / 4 -> 1 (at least 1). */
static void imbalance_by_hand(void **state) {
  (void)state;
  uint32_t even[4] = {16, 16, 16, 16}, one[4] = {64, 0, 0, 0}, chunk[4] = {8, 0, 0, 0};
  uint32_t half[4] = {12, 4, 0, 0}, spread[4] = {1, 1, 1, 1};
  assert_close(ws_prof_rp_request_imbalance(even, 4, 64, 8), 1, 0);
  assert_close(ws_prof_rp_request_imbalance(one, 4, 64, 8), 4, 0);
  assert_close(ws_prof_rp_request_imbalance(chunk, 4, 8, 8), 1, 0);
  assert_close(ws_prof_rp_request_imbalance(half, 4, 16, 8), 1.5, 0);
  assert_close(ws_prof_rp_request_imbalance(spread, 4, 4, 8), 1, 0);
}

/* Replays one block of one warp on the gtx680 (P 4, 256 B, a window of
 * 2 x 4 x 8 = 64 DRAM sectors) whose requests read the given sectors (one
 * request per `per_req` sectors); every sector is new, so each misses the
 * 512 KB L2 and goes to DRAM.  Returns the imbalance. */
static double replay_imbalance(const uint64_t *addr, size_t n, size_t per_req) {
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g;
  assert_ok_diag(ws_gpu_load(&g, "gtx680", &d), &d);
  ws_rp_config rc = {.nslots = 1, .grid_blocks = 1, .blocks_per_sm = 1};
  ws_replay *r = ws_prof_rp_new(g, &rc);
  assert_non_null(r);
  ws_rp_trace t = {0};
  for (size_t i = 0; i < n; i++) ws_prof_rp_trace_push(&t, addr[i] | (i % per_req ? 0 : WS_RP_FIRST));
  ws_prof_rp_put(r, 0, &t, 1);
  ws_prof_rp_finish(r);
  const ws_rp_stats *cs = ws_prof_rp_stats_of(r);
  assert_int_equal(cs->partitions, 4);
  assert_int_equal(cs->part_sectors, n);
  double v = cs->part_weighted / (double)cs->part_sectors;
  ws_prof_rp_trace_free(&t);
  ws_prof_rp_free(r);
  ws_gpu_free(g);
  return v;
}

/* Linear walk: 16 line reads of 4 sectors, bytes 0..2047 = chunks 0..7 ->
 * partitions 0,1,2,3,1,2,3,0 (hash above): 16 sectors each, one window
 * of 64: imbalance 1.
 * Column walk with pitch P x G = 1024 B (64 rows, one sector each): chunk
 * 4i, whose base-4 digits are i's shifted, so the partition is i's digit
 * sum mod 4; over i = 0..63 (every 3-digit base-4 number) each residue
 * occurs 16 times: imbalance 1 (plain addr / 256 mod 4 would put all 64 in
 * partition 0: 4).
 * Camped walk: chunks whose digit sums are all 0 mod 4: 0, 7 (1,3),
 * 10 (2,2), 13 (3,1), 19 (1,0,3), 22 (1,1,2), 25 (1,2,1), 28 (1,3,0), the
 * 8 sectors of each: 64 sectors in partition 0, imbalance 64 / 16 = 4 = P;
 * as one request of 32 sectors, two requests: the same (windows, not
 * requests, are counted). */
static void replay_walks(void **state) {
  (void)state;
  uint64_t a[64];
  for (int i = 0; i < 64; i++) a[i] = (uint64_t)i * 32;
  assert_close(replay_imbalance(a, 64, 4), 1, 1e-12);
  for (int i = 0; i < 64; i++) a[i] = (uint64_t)i * 1024;
  assert_close(replay_imbalance(a, 64, 1), 1, 1e-12);
  static const int camped[8] = {0, 7, 10, 13, 19, 22, 25, 28};
  for (int i = 0; i < 64; i++) a[i] = (uint64_t)camped[i / 8] * 256 + (uint64_t)(i % 8) * 32;
  assert_close(replay_imbalance(a, 64, 1), 4, 1e-12);
  assert_close(replay_imbalance(a, 64, 32), 4, 1e-12);
}

/* The replay finds a sector's partition once per run of sectors of one
 * interleave chunk and counts the run at once, split where a window fills
 * (replay.c, note_partitions).  Checked against the plain
 * rule written here: every DRAM sector's partition by ws_prof_rp_partition,
 * counted in windows of 2 x P x G / 32 sectors, each window's imbalance by
 * ws_prof_rp_request_imbalance, weighted by its sectors.  The sectors come
 * in runs that stay in a chunk, leave it and come back to an earlier one
 * (a memo of the last chunk must not keep a stale partition), in requests
 * of up to 7 sectors, each sector read once (every read misses the L2;
 * runs cross windows' ends);
 * for a power-of-two interleave (gtx680: P 4, 256 B) and another (P 5,
 * 96 B: a division). */
static void memo_matches_plain(void **state) {
  (void)state;
  static const struct {
    const char *name;
    uint32_t p, il;
  } gpus[2] = {{"gtx680", 4, 256}, {NULL, 5, 96}};
  for (int gi = 0; gi < 2; gi++) {
    ws_diag d = WS_DIAG_INIT;
    ws_gpu *g = NULL;
    if (gpus[gi].name) assert_ok_diag(ws_gpu_load(&g, gpus[gi].name, &d), &d);
    else
      g = ws_test_gpu(GPU_T ",\"cache\":{\"l2_bytes\":524288},\"memory\":{\"dram_partitions\":5,"
                      "\"interleave_bytes\":96}}");
    assert_non_null(g);
    const uint32_t P = gpus[gi].p, G = gpus[gi].il, chunk = G / 32 ? G / 32 : 1;
    enum { N = 600 };
    uint64_t a[N];
    size_t n = 0;
    /* chunk numbers wander: stay (run of 1 to 4 sectors), step on, or go
     * back to an earlier chunk; sector i of the walk is distinct (its own
     * 32 bytes: chunk x G + a fresh slot within the chunk's sectors) */
    uint32_t x = 12345, used[400] = {0};
    uint64_t c = 7;
    while (n < N) {
      x = x * 1103515245u + 12345u;
      uint32_t kind = x >> 28;
      if (kind < 6) c = c + 1 + (x >> 20 & 3);      /* on */
      else if (kind < 11) c = (x >> 16) % 400;      /* anywhere, back too */
      for (uint32_t run = 1 + (x >> 8 & 3); run && n < N; run--) {
        uint64_t cc = c % 400;
        if (used[cc] >= chunk) break; /* the chunk's sectors all read */
        a[n++] = (cc * G + 31) / 32 * 32 + (uint64_t)used[cc]++ * 32;
      }
    }
    /* the sectors that lie wholly in their chunk: a sector straddling two
     * chunks (G = 96 is 3 sectors, aligned) cannot occur */
    ws_rp_config rc = {.nslots = 1, .grid_blocks = 1, .blocks_per_sm = 1};
    ws_replay *r = ws_prof_rp_new(g, &rc);
    assert_non_null(r);
    ws_rp_trace t = {0};
    for (size_t i = 0; i < n; i++) ws_prof_rp_trace_push(&t, a[i] | (i % 7 ? 0 : WS_RP_FIRST));
    ws_prof_rp_put(r, 0, &t, 1);
    ws_prof_rp_finish(r);
    const ws_rp_stats *cs = ws_prof_rp_stats_of(r);
    assert_int_equal(cs->partitions, P);
    assert_int_equal(cs->part_sectors, n);
    /* the plain rule */
    const uint32_t window = 2 * P * chunk;
    uint32_t cnt[8] = {0}, in = 0;
    double weighted = 0;
    for (size_t i = 0; i < n; i++) {
      cnt[ws_prof_rp_partition(a[i], P, G)]++;
      if (++in == window || i + 1 == n) {
        weighted += in * ws_prof_rp_request_imbalance(cnt, P, in, chunk);
        memset(cnt, 0, sizeof cnt);
        in = 0;
      }
    }
    assert_true(weighted > (double)n); /* some window is uneven: the test sees partitions */
    assert_close(cs->part_weighted, weighted, 1e-9);
    ws_prof_rp_trace_free(&t);
    ws_prof_rp_free(r);
    ws_gpu_free(g);
    ws_diag_free(&d);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(facts_derived),
      cmocka_unit_test(hash_by_hand),
      cmocka_unit_test(hash_matches_definition),
      cmocka_unit_test(imbalance_by_hand),
      cmocka_unit_test(replay_walks),
      cmocka_unit_test(memo_matches_plain),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
