/*
 * emu_fixture.h — what the tests of the emulator's instruction families
 * share (test_emu_async, test_emu_coop, test_emu_mma, test_emu_tex,
 * test_emu_workers): one or two modules of tests/unit/kernels, a device,
 * buffers on it, and one launch of a kernel with its parameters.  Include
 * after testutil.h.
 */
#ifndef WS_TEST_EMU_FIXTURE_H
#define WS_TEST_EMU_FIXTURE_H

#include <string.h>

#include "warpsight/emu.h"
#include "warpsight/ptx.h"

typedef struct emu_fix {
  ws_ptx_module *m[2];       /* the kernels' modules (m[1] may be NULL) */
  ws_emu_device *dev;
  ws_diag d;
  int threads;               /* emu_run's worker threads */
  const ws_emu_hooks *hooks; /* emu_run's profiler hooks (NULL: none) */
  const ws_emu_options *opts; /* emu_run's other options (NULL: WS_EMU_OPTIONS_INIT) */
} emu_fix;

/* The modules of files k0 and k1 (NULL: none) of tests/unit/kernels and a
 * device; emu_run on `threads` workers. */
static inline emu_fix *emu_fix_new(const char *k0, const char *k1, int threads) {
  emu_fix *f = calloc(1, sizeof *f);
  assert_non_null(f);
  const char *k[2] = {k0, k1};
  for (int i = 0; i < 2 && k[i]; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/tests/unit/kernels/%s", WS_SOURCE_DIR, k[i]);
    assert_ok_diag(ws_ptx_parse_file(&f->m[i], path, &f->d), &f->d);
  }
  assert_ok_diag(ws_emu_device_new(&f->dev, NULL, &f->d), &f->d);
  f->threads = threads;
  return f;
}

static inline void emu_fix_free(emu_fix *f) {
  ws_emu_device_free(f->dev);
  ws_ptx_module_free(f->m[0]);
  ws_ptx_module_free(f->m[1]);
  ws_diag_free(&f->d);
  free(f);
}

/* The cmocka setup and teardown of a test file: an emu_fix of the modules
 * k0 and k1 whose emu_run uses `threads` workers. */
#define EMU_FIXTURE(k0, k1, threads)                  \
  static int setup(void **state) {                    \
    *state = emu_fix_new(k0, k1, threads);            \
    return 0;                                         \
  }                                                   \
  static int teardown(void **state) {                 \
    emu_fix_free(*state);                             \
    return 0;                                         \
  }

/* A device buffer of n bytes holding src (NULL: zeros); its address. */
static inline uint64_t emu_buf(emu_fix *f, const void *src, size_t n) {
  uint64_t a = 0;
  assert_ok_diag(ws_emu_mem_alloc(f->dev, n, "buf", &a, &f->d), &f->d);
  if (src) memcpy(ws_emu_mem_host(f->dev, a, n), src, n);
  return a;
}
static inline void *emu_host(emu_fix *f, uint64_t a, size_t n) { return ws_emu_mem_host(f->dev, a, n); }

/* Kernel k of module mi on grid blocks of bx x by threads, its parameters
 * at args (one pointer per parameter), cooperative or not: ws_emu_run's
 * status, its figures in *st (may be NULL). */
static inline int emu_run(emu_fix *f, int mi, const char *k, uint32_t grid, uint32_t bx, uint32_t by, void **args,
                          int coop, ws_emu_stats *st) {
  ws_emu_program *p = NULL;
  ws_emu_launch *l = NULL;
  uint8_t img[256];
  size_t used = 0;
  assert_ok_diag(ws_emu_load(&p, f->m[mi], k, &f->d), &f->d);
  assert_ok_diag(ws_emu_params_pack(ws_emu_program_kernel(p), args, img, sizeof img, &used, &f->d), &f->d);
  ws_emu_launch_config c = {{grid, 1, 1}, {bx, by, 1}, 0, img, used};
  assert_ok_diag(ws_emu_launch_raw(&l, f->dev, p, &c, &f->d), &f->d);
  if (coop) assert_ok_diag(ws_emu_launch_set_cooperative(l, &f->d), &f->d);
  assert_int_equal(ws_emu_launch_cooperative(l), coop);
  ws_emu_options o = WS_EMU_OPTIONS_INIT;
  if (f->opts) o = *f->opts;
  o.threads = f->threads;
  o.hooks = f->hooks;
  ws_emu_stats s;
  memset(&s, 0, sizeof s);
  int r = ws_emu_run(l, &o, &s, &f->d);
  if (st) *st = s;
  ws_emu_launch_free(l);
  ws_emu_program_free(p);
  return r;
}

#endif
