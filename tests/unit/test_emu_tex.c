/*
 * test_emu_tex.c — texture and surface objects (src/emu/ops/tex.h) against
 * a C reference of the CUDA C++ Programming Guide's "Texture Fetching"
 * appendix: nearest-point and linear filtering (weights in 9-bit fixed
 * point with 8 fractional bits), the four address modes, normalised
 * coordinates, normalised-float reads of 8-bit integers, 1D/2D/3D,
 * layered and cube-map textures, tex1Dfetch on linear memory, gathers,
 * txq, and surfaces with their boundary modes.
 *
 * The reference below is written from the guide's formulas, per
 * dimension; the emulator's is in ops/tex.h.  Kernels:
 * tests/unit/kernels/emu_tex.cu.
 */
#include "testutil.h"

#include "emu_fixture.h"
#include "num_ref.h"

typedef emu_fix fix;

EMU_FIXTURE("emu_tex.ptx", NULL, 1)

/* Kernel k on `threads` threads (block x, y) x grid with a handle and
 * device addresses (then an int if n). */
static int run(fix *f, const char *k, uint32_t grid, uint32_t bx, uint32_t by, const uint64_t *args64, int nargs,
               const int *n, int *fk) {
  void *args[8];
  for (int i = 0; i < nargs; i++) args[i] = (void *)&args64[i];
  if (n) args[nargs] = (void *)n;
  ws_emu_stats st;
  int r = emu_run(f, 0, k, grid, bx, by, args, 0, &st);
  if (fk) *fk = st.fault_kind;
  return r;
}

/* ---- the reference ------------------------------------------------------------------ */

/* A texture as the reference sees it: every texel's 4 values as doubles
 * (missing channels 0, alpha 1), w x h x d texels per layer/face. */
typedef struct rtex {
  const double *v; /* [face][z][y][x][4] */
  int w, h, d;
  int mode[3];     /* WS_EMU_ADDR_* */
  int linear, norm;
  double border[4];
} rtex;

/* Texel index i of a dimension of n texels after the address mode; -1:
 * the border.  Unnormalised coordinates clamp in wrap and mirror modes
 * (the guide: those modes need normalised coordinates). */
static int ref_index(const rtex *t, int dim, long i, int n) {
  int m = t->mode[dim];
  if (!t->norm && (m == WS_EMU_ADDR_WRAP || m == WS_EMU_ADDR_MIRROR)) m = WS_EMU_ADDR_CLAMP;
  if (i >= 0 && i < n) return (int)i;
  if (m == WS_EMU_ADDR_BORDER) return -1;
  if (m == WS_EMU_ADDR_CLAMP) return i < 0 ? 0 : n - 1;
  if (m == WS_EMU_ADDR_WRAP) return (int)(((i % n) + n) % n);
  long period = 2L * n, q = ((i % period) + period) % period; /* mirror: 0..n-1 then n-1..0 */
  return (int)(q < n ? q : period - 1 - q);
}

static void ref_texel(const rtex *t, int face, long i, long j, long k, double out[4]) {
  int x = ref_index(t, 0, i, t->w), y = ref_index(t, 1, j, t->h), z = ref_index(t, 2, k, t->d);
  if (x < 0 || y < 0 || z < 0) {
    memcpy(out, t->border, sizeof t->border);
    return;
  }
  const double *p = t->v + ((((size_t)face * t->d + z) * t->h + y) * t->w + x) * 4;
  memcpy(out, p, 4 * sizeof *p);
}

/* tex(x[, y[, z]]) of a texture with dims dimensions, into out[4] (as f32). */
static void ref_sample(const rtex *t, int dims, int face, const double *coord, float out[4]) {
  double x[3] = {0, 0, 0};
  int n[3] = {t->w, t->h, t->d};
  for (int a = 0; a < dims; a++) {
    double c = coord[a];
    if (t->norm) {
      if (t->mode[a] == WS_EMU_ADDR_WRAP) c = c - floor(c);
      else if (t->mode[a] == WS_EMU_ADDR_MIRROR) c = ((long)floor(c) % 2 == 0) ? c - floor(c) : 1 - (c - floor(c));
      c *= n[a];
    }
    x[a] = c;
  }
  double acc[4] = {0, 0, 0, 0}, tv[4];
  if (!t->linear) {
    ref_texel(t, face, (long)floor(x[0]), dims > 1 ? (long)floor(x[1]) : 0, dims > 2 ? (long)floor(x[2]) : 0, tv);
    for (int c = 0; c < 4; c++) out[c] = (float)tv[c];
    return;
  }
  /* i = floor(xB), alpha = frac(xB), xB = x - 0.5, alpha with 8 fractional bits */
  long i0[3] = {0, 0, 0};
  double w1[3] = {0, 0, 0};
  for (int a = 0; a < dims; a++) {
    double xb = x[a] - 0.5;
    i0[a] = (long)floor(xb);
    w1[a] = round((xb - floor(xb)) * 256) / 256;
  }
  for (int dz = 0; dz < (dims > 2 ? 2 : 1); dz++)
    for (int dy = 0; dy < (dims > 1 ? 2 : 1); dy++)
      for (int dx = 0; dx < 2; dx++) {
        double wt = (dx ? w1[0] : 1 - w1[0]) * (dims > 1 ? (dy ? w1[1] : 1 - w1[1]) : 1) *
                    (dims > 2 ? (dz ? w1[2] : 1 - w1[2]) : 1);
        ref_texel(t, face, i0[0] + dx, i0[1] + dy, i0[2] + dz, tv);
        for (int c = 0; c < 4; c++) acc[c] += wt * tv[c];
      }
  for (int c = 0; c < 4; c++) out[c] = (float)acc[c];
}

/* ---- tests -------------------------------------------------------------------------------- */

/* A 2D float texture of w x h (one channel), the emulator's object with
 * the reference's settings. */
static uint64_t tex2d_float(fix *f, const float *data, int w, int h, int nch, const int mode[2], int linear, int norm,
                            const float border[4], double *ref_vals) {
  ws_emu_tex_desc d;
  memset(&d, 0, sizeof d);
  d.addr = emu_buf(f, data, (size_t)w * h * nch * 4);
  d.dims = 2;
  d.width = (uint32_t)w;
  d.height = (uint32_t)h;
  d.depth = 1;
  d.nchan = (uint32_t)nch;
  d.chan_bits = 32;
  d.kind = WS_EMU_CHAN_FLOAT;
  d.addr_mode[0] = (ws_emu_addr_mode)mode[0];
  d.addr_mode[1] = (ws_emu_addr_mode)mode[1];
  d.addr_mode[2] = WS_EMU_ADDR_CLAMP;
  d.filter_linear = linear;
  d.normalized_coords = norm;
  if (border) memcpy(d.border, border, sizeof d.border);
  for (int i = 0; i < w * h; i++)
    for (int c = 0; c < 4; c++) ref_vals[i * 4 + c] = c < nch ? data[i * nch + c] : c == 3 ? 1.0 : 0.0;
  uint64_t hnd = 0;
  assert_ok_diag(ws_emu_tex_create(f->dev, &d, &hnd, &f->d), &f->d);
  assert_true(hnd != 0);
  return hnd;
}

/* 2D, every address mode and both filters, normalised and not. */
static void test_tex2d_modes(void **state) {
  fix *f = *state;
  enum { W = 5, H = 4, N = 64 };
  float data[W * H * 2];
  uint64_t s = 21;
  for (int i = 0; i < W * H * 2; i++) data[i] = (float)(int)(ref_rand(&s) % 2001) / 8.0f - 100.0f;
  float coords[N * 2];
  for (int t = 0; t < N; t++) { /* normalised-range coordinates, some outside [0, 1) */
    coords[2 * t] = (float)((double)(int)(ref_rand(&s) % 4001) / 1000.0 - 1.5);
    coords[2 * t + 1] = (float)((double)(int)(ref_rand(&s) % 4001) / 1000.0 - 1.5);
  }
  static const float bc[4] = {7.5f, -3.25f, 0.5f, 2.0f};
  int cases = 0;
  for (int mode = 0; mode < 4; mode++)
    for (int linear = 0; linear < 2; linear++)
      for (int norm = 0; norm < 2; norm++) {
        double vals[W * H * 4];
        int md[2] = {mode, (mode + linear) % 4}; /* x and y modes differ */
        uint64_t hnd = tex2d_float(f, data, W, H, 2, md, linear, norm, bc, vals);
        float cc[N * 2];
        for (int i = 0; i < 2 * N; i++) cc[i] = norm ? coords[i] : coords[i] * (i % 2 ? H : W);
        uint64_t a[3] = {hnd, emu_buf(f, cc, sizeof cc), emu_buf(f, NULL, N * 16)};
        assert_ok_diag(run(f, "t2", 1, N, 1, a, 3, NULL, NULL), &f->d);
        const float *o = emu_host(f, a[2], N * 16);
        rtex rt = {vals, W, H, 1, {md[0], md[1], WS_EMU_ADDR_CLAMP}, linear, norm, {bc[0], bc[1], bc[2], bc[3]}};
        for (int t = 0; t < N; t++) {
          double c[2] = {cc[2 * t], cc[2 * t + 1]};
          float want[4];
          ref_sample(&rt, 2, 0, c, want);
          for (int ch = 0; ch < 4; ch++) {
            if (fbits(o[t * 4 + ch]) != fbits(want[ch]))
              print_error("mode %d/%d linear %d norm %d, (%g, %g) channel %d: %.9g, expected %.9g\n", md[0], md[1], linear,
                          norm, c[0], c[1], ch, (double)o[t * 4 + ch], (double)want[ch]);
            assert_int_equal(fbits(o[t * 4 + ch]), fbits(want[ch]));
          }
        }
        cases++;
      }
  assert_int_equal(cases, 16);
}

/* uchar4 read as normalised floats, bilinear, clamp, normalised coords;
 * and the same texels read as integers (tex2D<uint4>, nearest). */
static void test_tex2d_uchar4(void **state) {
  fix *f = *state;
  enum { W = 7, H = 3, N = 40 };
  uint8_t data[W * H * 4];
  uint64_t s = 22;
  for (int i = 0; i < W * H * 4; i++) data[i] = (uint8_t)ref_rand(&s);
  ws_emu_tex_desc d;
  memset(&d, 0, sizeof d);
  d.addr = emu_buf(f, data, sizeof data);
  d.dims = 2;
  d.width = W;
  d.height = H;
  d.depth = 1;
  d.nchan = 4;
  d.chan_bits = 8;
  d.kind = WS_EMU_CHAN_UNSIGNED;
  d.filter_linear = 1;
  d.read_normalized = 1;
  d.normalized_coords = 1;
  d.addr_mode[0] = d.addr_mode[1] = d.addr_mode[2] = WS_EMU_ADDR_CLAMP;
  uint64_t hnd = 0, hi = 0;
  assert_ok_diag(ws_emu_tex_create(f->dev, &d, &hnd, &f->d), &f->d);
  d.filter_linear = 0;
  d.read_normalized = 0;
  assert_ok_diag(ws_emu_tex_create(f->dev, &d, &hi, &f->d), &f->d);
  float cc[N * 2];
  for (int i = 0; i < 2 * N; i++) cc[i] = (float)((double)(int)(ref_rand(&s) % 1301) / 1000.0 - 0.15);
  double vals[W * H * 4];
  for (int i = 0; i < W * H * 4; i++) vals[i] = data[i] / 255.0;
  uint64_t a[3] = {hnd, emu_buf(f, cc, sizeof cc), emu_buf(f, NULL, N * 16)};
  assert_ok_diag(run(f, "t2", 1, N, 1, a, 3, NULL, NULL), &f->d);
  const float *o = emu_host(f, a[2], N * 16);
  rtex rt = {vals, W, H, 1, {WS_EMU_ADDR_CLAMP, WS_EMU_ADDR_CLAMP, WS_EMU_ADDR_CLAMP}, 1, 1, {0, 0, 0, 0}};
  for (int t = 0; t < N; t++) {
    double c[2] = {cc[2 * t], cc[2 * t + 1]};
    float want[4];
    ref_sample(&rt, 2, 0, c, want);
    for (int ch = 0; ch < 4; ch++) assert_int_equal(fbits(o[t * 4 + ch]), fbits(want[ch]));
  }
  /* integers: the nearest texel's bytes */
  uint64_t b[3] = {hi, a[1], emu_buf(f, NULL, N * 16)};
  assert_ok_diag(run(f, "t2u", 1, N, 1, b, 3, NULL, NULL), &f->d);
  const uint32_t *u = emu_host(f, b[2], N * 16);
  for (int t = 0; t < N; t++) {
    int x = (int)floor(cc[2 * t] * W), y = (int)floor(cc[2 * t + 1] * H);
    x = x < 0 ? 0 : x >= W ? W - 1 : x;
    y = y < 0 ? 0 : y >= H ? H - 1 : y;
    for (int ch = 0; ch < 4; ch++) assert_int_equal(u[t * 4 + ch], data[(y * W + x) * 4 + ch]);
  }
}

/* 1D (linear, wrap), 3D (linear, clamp, unnormalised), 1D and 2D layered,
 * a cube map (nearest), tex1Dfetch, a gather and txq. */
static void test_tex_geometries(void **state) {
  fix *f = *state;
  uint64_t s = 23;
  enum { N = 32 };
  /* 3D: 4 x 3 x 2, one float */
  float d3[24];
  for (int i = 0; i < 24; i++) d3[i] = (float)(i * i % 17) - 4.5f;
  ws_emu_tex_desc d;
  memset(&d, 0, sizeof d);
  d.addr = emu_buf(f, d3, sizeof d3);
  d.dims = 3;
  d.width = 4;
  d.height = 3;
  d.depth = 2;
  d.nchan = 1;
  d.chan_bits = 32;
  d.kind = WS_EMU_CHAN_FLOAT;
  d.filter_linear = 1;
  uint64_t h3 = 0;
  assert_ok_diag(ws_emu_tex_create(f->dev, &d, &h3, &f->d), &f->d);
  float c4[N * 4];
  for (int i = 0; i < N * 4; i++) c4[i] = (float)((double)(int)(ref_rand(&s) % 601) / 100.0 - 1.0);
  uint64_t a[3] = {h3, emu_buf(f, c4, sizeof c4), emu_buf(f, NULL, N * 16)};
  assert_ok_diag(run(f, "t3", 1, N, 1, a, 3, NULL, NULL), &f->d);
  const float *o = emu_host(f, a[2], N * 16);
  double v3[24 * 4];
  for (int i = 0; i < 24; i++) v3[i * 4] = d3[i], v3[i * 4 + 1] = v3[i * 4 + 2] = 0, v3[i * 4 + 3] = 1;
  rtex r3 = {v3, 4, 3, 2, {WS_EMU_ADDR_CLAMP, WS_EMU_ADDR_CLAMP, WS_EMU_ADDR_CLAMP}, 1, 0, {0, 0, 0, 0}};
  for (int t = 0; t < N; t++) {
    double c[3] = {c4[4 * t], c4[4 * t + 1], c4[4 * t + 2]};
    float want[4];
    ref_sample(&r3, 3, 0, c, want);
    for (int ch = 0; ch < 4; ch++) assert_int_equal(fbits(o[t * 4 + ch]), fbits(want[ch]));
  }
  /* 2D layered: 3 layers of 4 x 2 floats (layer = w of the coordinate), nearest */
  float dl[24];
  for (int i = 0; i < 24; i++) dl[i] = (float)i + 0.5f;
  d.addr = emu_buf(f, dl, sizeof dl);
  d.dims = 2;
  d.depth = 1;
  d.height = 2;
  d.layers = 3;
  d.filter_linear = 0;
  uint64_t hl = 0;
  assert_ok_diag(ws_emu_tex_create(f->dev, &d, &hl, &f->d), &f->d);
  for (int t = 0; t < N; t++) c4[4 * t + 3] = (float)((int)(ref_rand(&s) % 5) - 1); /* layers -1 .. 3: clamped */
  uint64_t b[3] = {hl, emu_buf(f, c4, sizeof c4), emu_buf(f, NULL, N * 16)};
  assert_ok_diag(run(f, "t2l", 1, N, 1, b, 3, NULL, NULL), &f->d);
  o = emu_host(f, b[2], N * 16);
  for (int t = 0; t < N; t++) {
    int layer = (int)c4[4 * t + 3];
    layer = layer < 0 ? 0 : layer > 2 ? 2 : layer;
    int x = (int)floor(c4[4 * t]), y = (int)floor(c4[4 * t + 1]);
    x = x < 0 ? 0 : x > 3 ? 3 : x;
    y = y < 0 ? 0 : y > 1 ? 1 : y;
    assert_true(o[t * 4] == dl[layer * 8 + y * 4 + x]);
    assert_true(o[t * 4 + 3] == 1.0f && o[t * 4 + 1] == 0.0f);
  }
  /* cube map of 2 x 2 faces: texel value 10 * face + index; directions
   * toward each face's texels (the guide's face table) */
  float dc[24];
  for (int i = 0; i < 24; i++) dc[i] = (float)(10 * (i / 4) + i % 4);
  d.addr = emu_buf(f, dc, sizeof dc);
  d.width = d.height = 2;
  d.layers = 0;
  d.cubemap = 1;
  d.normalized_coords = 1;
  uint64_t hc = 0;
  assert_ok_diag(ws_emu_tex_create(f->dev, &d, &hc, &f->d), &f->d);
  static const float dirs[][3] = {{1, -0.5f, -0.5f}, {1, 0.5f, 0.5f}, {-1, -0.5f, 0.5f}, {0.3f, 1, 0.6f},
                                  {0.3f, -1, 0.6f},  {0.6f, -0.5f, 1}, {-0.6f, 0.5f, -1}, {-1, 0.5f, -0.5f}};
  /* face, s, t by the table: +x: (-z, -y), -x: (z, -y), +y: (x, z), -y: (x, -z), +z: (x, -y), -z: (-x, -y) */
  static const int want_face[] = {0, 0, 1, 2, 3, 4, 5, 1};
  float cd[8 * 4];
  for (int i = 0; i < 8; i++) cd[4 * i] = dirs[i][0], cd[4 * i + 1] = dirs[i][1], cd[4 * i + 2] = dirs[i][2], cd[4 * i + 3] = 0;
  uint64_t c[3] = {hc, emu_buf(f, cd, sizeof cd), emu_buf(f, NULL, 8 * 16)};
  assert_ok_diag(run(f, "tcube", 1, 8, 1, c, 3, NULL, NULL), &f->d);
  o = emu_host(f, c[2], 8 * 16);
  for (int i = 0; i < 8; i++) {
    double x = dirs[i][0], y = dirs[i][1], z = dirs[i][2], sc, tc, ma;
    switch (want_face[i]) {
    case 0: sc = -z, tc = -y, ma = fabs(x); break;
    case 1: sc = z, tc = -y, ma = fabs(x); break;
    case 2: sc = x, tc = z, ma = fabs(y); break;
    case 3: sc = x, tc = -z, ma = fabs(y); break;
    case 4: sc = x, tc = -y, ma = fabs(z); break;
    default: sc = -x, tc = -y, ma = fabs(z); break;
    }
    int xs = (int)floor((sc / ma + 1) / 2 * 2), ys = (int)floor((tc / ma + 1) / 2 * 2);
    xs = xs > 1 ? 1 : xs;
    ys = ys > 1 ? 1 : ys;
    assert_true(o[i * 4] == dc[want_face[i] * 4 + ys * 2 + xs]);
  }
  /* tex1Dfetch on linear memory of float4: index outside reads zeros */
  float lin[16 * 4];
  for (int i = 0; i < 64; i++) lin[i] = (float)i * 1.5f;
  memset(&d, 0, sizeof d);
  d.addr = emu_buf(f, lin, sizeof lin);
  d.dims = 1;
  d.width = 16;
  d.height = d.depth = 1;
  d.nchan = 4;
  d.chan_bits = 32;
  d.kind = WS_EMU_CHAN_FLOAT;
  d.linear_memory = 1;
  uint64_t hf = 0;
  assert_ok_diag(ws_emu_tex_create(f->dev, &d, &hf, &f->d), &f->d);
  int idx[N];
  for (int t = 0; t < N; t++) idx[t] = t - 8;
  uint64_t e[3] = {hf, emu_buf(f, idx, sizeof idx), emu_buf(f, NULL, N * 16)};
  assert_ok_diag(run(f, "tfetch", 1, N, 1, e, 3, NULL, NULL), &f->d);
  o = emu_host(f, e[2], N * 16);
  for (int t = 0; t < N; t++)
    for (int ch = 0; ch < 4; ch++) assert_true(o[t * 4 + ch] == (idx[t] >= 0 && idx[t] < 16 ? lin[idx[t] * 4 + ch] : 0.0f));
  /* gather of channel 1 (g) of a 2-channel 3 x 3 texture, wrap, normalised:
   * {T(i, j+1), T(i+1, j+1), T(i+1, j), T(i, j)} */
  float g2[18];
  for (int i = 0; i < 18; i++) g2[i] = (float)(i * 3 % 11);
  double vals[9 * 4];
  int md[2] = {WS_EMU_ADDR_WRAP, WS_EMU_ADDR_WRAP};
  uint64_t hg = tex2d_float(f, g2, 3, 3, 2, md, 0, 1, NULL, vals);
  float cg[N * 2];
  for (int i = 0; i < 2 * N; i++) cg[i] = (float)((double)(int)(ref_rand(&s) % 3001) / 1000.0 - 1.0);
  uint64_t g[3] = {hg, emu_buf(f, cg, sizeof cg), emu_buf(f, NULL, N * 16)};
  assert_ok_diag(run(f, "tgather", 1, N, 1, g, 3, NULL, NULL), &f->d);
  o = emu_host(f, g[2], N * 16);
  for (int t = 0; t < N; t++) {
    double xb = (cg[2 * t] - floor(cg[2 * t])) * 3 - 0.5, yb = (cg[2 * t + 1] - floor(cg[2 * t + 1])) * 3 - 0.5;
    long i = (long)floor(xb), j = (long)floor(yb);
    static const int di[4] = {0, 1, 1, 0}, dj[4] = {1, 1, 0, 0};
    for (int q = 0; q < 4; q++) {
      int x = (int)(((i + di[q]) % 3 + 3) % 3), y = (int)(((j + dj[q]) % 3 + 3) % 3);
      assert_true(o[t * 4 + q] == g2[(y * 3 + x) * 2 + 1]);
    }
  }
  /* txq: width and height of the gather texture */
  uint64_t q[2] = {hg, emu_buf(f, NULL, 8)};
  assert_ok_diag(run(f, "tq", 1, 1, 1, q, 2, NULL, NULL), &f->d);
  const int *qq = emu_host(f, q[1], 8);
  assert_int_equal(qq[0], 3);
  assert_int_equal(qq[1], 3);
  /* a destroyed object faults when fetched */
  assert_ok_diag(ws_emu_tex_destroy(f->dev, hg, &f->d), &f->d);
  int fk = -1;
  assert_int_equal(run(f, "tq", 1, 1, 1, q, 2, NULL, &fk), WS_EFAULT);
  assert_int_equal(fk, WS_EMU_FAULT_OTHER);
  char *msg = ws_diag_format(&f->d);
  assert_non_null(strstr(msg, "is not a live texture object"));
  free(msg);
  ws_diag_free(&f->d);
}

/* Surfaces: 2D float, reads with clamp and zero outside, writes with zero
 * (outside: nothing); trap outside faults; a 3D uchar4 copy. */
static void test_surfaces(void **state) {
  fix *f = *state;
  enum { W = 6, H = 5, N = 32 };
  float data[W * H];
  for (int i = 0; i < W * H; i++) data[i] = (float)i * 0.5f;
  ws_emu_tex_desc d;
  memset(&d, 0, sizeof d);
  d.dims = 2;
  d.width = W;
  d.height = H;
  d.depth = 1;
  d.nchan = 1;
  d.chan_bits = 32;
  d.kind = WS_EMU_CHAN_FLOAT;
  d.surface = 1;
  int xy[N * 2];
  uint64_t s = 24;
  for (int t = 0; t < N; t++) {
    xy[2 * t] = (int)(ref_rand(&s) % 10) - 2;
    xy[2 * t + 1] = t < 24 ? t % H : (int)(ref_rand(&s) % 9) - 2;
  }
  for (int mode = 1; mode <= 2; mode++) {
    d.addr = emu_buf(f, data, sizeof data);
    uint64_t hs = 0;
    assert_ok_diag(ws_emu_tex_create(f->dev, &d, &hs, &f->d), &f->d);
    uint64_t a[3] = {hs, emu_buf(f, xy, sizeof xy), emu_buf(f, NULL, N * 4)};
    assert_ok_diag(run(f, "s2", 1, N, 1, a, 3, &mode, NULL), &f->d);
    const float *o = emu_host(f, a[2], N * 4), *sd = emu_host(f, d.addr, sizeof data);
    float expect_mem[W * H];
    memcpy(expect_mem, data, sizeof data);
    for (int t = 0; t < N; t++) {
      int x = xy[2 * t], y = xy[2 * t + 1], in = x >= 0 && x < W && y >= 0 && y < H;
      int cx = x < 0 ? 0 : x >= W ? W - 1 : x, cy = y < 0 ? 0 : y >= H ? H - 1 : y;
      float want = mode == 1 ? data[cy * W + cx] : in ? data[y * W + x] : 0.0f;
      if (o[t] != want) print_error("mode %d thread %d (%d, %d): read %g, expected %g\n", mode, t, x, y, (double)o[t], (double)want);
      assert_true(o[t] == want);
      if (in) expect_mem[y * W + x] = 2 * want + 1; /* threads write distinct (x, y) or the same value */
    }
    for (int i = 0; i < W * H; i++) {
      if (sd[i] != expect_mem[i]) print_error("mode %d texel %d: %g, expected %g\n", mode, i, (double)sd[i], (double)expect_mem[i]);
      assert_true(sd[i] == expect_mem[i]);
    }
  }
  /* trap: an access outside faults, naming the surface */
  int mode = 0;
  d.addr = emu_buf(f, data, sizeof data);
  uint64_t hs = 0;
  assert_ok_diag(ws_emu_tex_create(f->dev, &d, &hs, &f->d), &f->d);
  uint64_t a[3] = {hs, emu_buf(f, xy, sizeof xy), emu_buf(f, NULL, N * 4)};
  int fk = -1;
  assert_int_equal(run(f, "s2", 1, N, 1, a, 3, &mode, &fk), WS_EFAULT);
  assert_int_equal(fk, WS_EMU_FAULT_OTHER);
  char *msg = ws_diag_format(&f->d);
  assert_non_null(strstr(msg, "outside the surface (6 x 5 x 1 texels of 4 bytes"));
  free(msg);
  ws_diag_free(&f->d);
  /* 3D uchar4: 4 x 2 x 3, out = in with x inverted */
  uint8_t c3[4 * 2 * 3 * 4];
  for (int i = 0; i < (int)sizeof c3; i++) c3[i] = (uint8_t)(i * 13);
  ws_emu_tex_desc e = d;
  e.dims = 3;
  e.width = 4;
  e.height = 2;
  e.depth = 3;
  e.nchan = 4;
  e.chan_bits = 8;
  e.kind = WS_EMU_CHAN_UNSIGNED;
  e.addr = emu_buf(f, c3, sizeof c3);
  uint64_t hin = 0, hout = 0;
  assert_ok_diag(ws_emu_tex_create(f->dev, &e, &hin, &f->d), &f->d);
  e.addr = emu_buf(f, NULL, sizeof c3);
  assert_ok_diag(ws_emu_tex_create(f->dev, &e, &hout, &f->d), &f->d);
  uint64_t b[2] = {hin, hout};
  assert_ok_diag(run(f, "s3", 3, 4, 2, b, 2, NULL, NULL), &f->d);
  const uint8_t *o3 = emu_host(f, e.addr, sizeof c3);
  for (int i = 0; i < (int)sizeof c3; i++) assert_int_equal(o3[i], i % 4 == 0 ? 255 - c3[i] : c3[i]);
}

/* What the profiler sees of a texture fetch: one event per warp with each
 * lane's address, the texel it reads first (for a bilinear fetch the corner
 * (floor(x - 0.5), floor(y - 0.5)) after the address mode), so that the
 * profiler counts the fetch's sectors like a load's. */
typedef struct texev {
  int n;
  uint8_t space;
  uint32_t exec;
  uint64_t addr[32];
} texev;
static void tex_hook(void *user, const ws_emu_event *ev) {
  texev *t = user;
  if (ev->inst->op != WS_PTX_OP_TEX) return;
  t->n++;
  t->space = ev->space;
  t->exec = ev->exec;
  assert_non_null(ev->addr);
  memcpy(t->addr, ev->addr, sizeof t->addr);
}

static void test_tex_event_addresses(void **state) {
  fix *f = *state;
  enum { W = 9, H = 6 };
  float data[W * H];
  for (int i = 0; i < W * H; i++) data[i] = (float)i;
  static const int clamp[2] = {WS_EMU_ADDR_CLAMP, WS_EMU_ADDR_CLAMP};
  for (int linear = 0; linear < 2; linear++) {
    double rv[W * H * 4];
    uint64_t hnd = tex2d_float(f, data, W, H, 1, clamp, linear, 0, NULL, rv);
    const uint64_t base = ws_emu_tex_find(f->dev, hnd)->addr;
    float cc[64];
    for (int l = 0; l < 32; l++) { /* lanes over the texture, a few outside */
      cc[2 * l] = (float)(l % 11) - 0.75f + 0.25f * (float)(l % 3);
      cc[2 * l + 1] = (float)(l / 5) - 0.5f + 0.125f * (float)(l % 4);
    }
    uint64_t a[3] = {hnd, emu_buf(f, cc, sizeof cc), emu_buf(f, NULL, 32 * 16)};
    texev ev;
    memset(&ev, 0, sizeof ev);
    ws_emu_hooks hk = {.user = &ev, .inst = tex_hook};
    f->hooks = &hk;
    assert_ok_diag(run(f, "t2", 1, 32, 1, a, 3, NULL, NULL), &f->d);
    f->hooks = NULL;
    assert_int_equal(ev.n, 1);
    assert_int_equal(ev.space, WS_PTX_SP_GLOBAL);
    assert_int_equal(ev.exec, 0xffffffffu);
    for (int l = 0; l < 32; l++) {
      double x = cc[2 * l] - (linear ? 0.5 : 0), y = cc[2 * l + 1] - (linear ? 0.5 : 0);
      long i = (long)floor(x), j = (long)floor(y);
      i = i < 0 ? 0 : i >= W ? W - 1 : i;
      j = j < 0 ? 0 : j >= H ? H - 1 : j;
      assert_int_equal(ev.addr[l], base + (uint64_t)(j * W + i) * 4);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_tex2d_modes, setup, teardown),
      cmocka_unit_test_setup_teardown(test_tex2d_uchar4, setup, teardown),
      cmocka_unit_test_setup_teardown(test_tex_geometries, setup, teardown),
      cmocka_unit_test_setup_teardown(test_surfaces, setup, teardown),
      cmocka_unit_test_setup_teardown(test_tex_event_addresses, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
