/*
 * ops/tex.h — texture and surface objects: tex (1d, 2d, 3d, a1d, a2d,
 * cube, acube; tex.level and tex.grad read level 0), tld4 (2d gathers),
 * txq, suld.b, sust.b and suq, on the objects of the launch's device
 * (ws_emu_tex_create).  The texture's handle is a register (CUDA's texture
 * and surface objects; module .texref variables are not supported, CUDA
 * 13 has none).
 *
 * Sampling follows the CUDA C++ Programming Guide's appendix "Texture
 * Fetching": normalised coordinates are scaled by the size after the wrap
 * (x - floor(x)) or mirror address modes; nearest-point sampling reads
 * texel floor(x); linear filtering reads texels i = floor(x - 0.5) and
 * i + 1 per dimension with weight alpha = frac(x - 0.5) held in 9-bit
 * fixed point with 8 fractional bits (alpha rounded to the nearest 1/256),
 * and returns sum of the weights times the texels, computed in double
 * precision and rounded once to f32.  A texel index outside the texture is
 * clamped (clamp, and wrap or mirror with unnormalised coordinates),
 * wrapped, mirrored, or replaced by the border colour.  8- and 16-bit
 * integer channels read as normalised floats give v / (2^b - 1) (unsigned)
 * or max(v / (2^(b-1) - 1), -1) (signed).  Channels a format lacks read as
 * 0 (1 for the fourth, alpha).  The hooks see one texel address per lane.
 * Decoders and executors of the TEX family (dops.def); compiled in exec.c.
 */

/* Geometries. */
enum { TG_1D, TG_2D, TG_3D, TG_A1D, TG_A2D, TG_CUBE, TG_ACUBE };

static int tex_geom(int mod) {
  switch (mod) {
  case WS_PTX_MOD_G1D: return TG_1D;
  case WS_PTX_MOD_G2D: return TG_2D;
  case WS_PTX_MOD_G3D: return TG_3D;
  case WS_PTX_MOD_A1D: return TG_A1D;
  case WS_PTX_MOD_A2D: return TG_A2D;
  case WS_PTX_MOD_CUBE: return TG_CUBE;
  case WS_PTX_MOD_ACUBE: return TG_ACUBE;
  default: return -1;
  }
}

/* Coordinate elements of each geometry ({x}, {x, y}, {x, y, z, _},
 * {layer, x}, {layer, x, y, _}, {x, y, z, _}, {layer, x, y, z}). */
static const uint8_t tex_ncoord[] = {1, 2, 4, 2, 4, 4, 4};

/* The object operand [h, c] (TEXADDR with two elements) or [h] of
 * instruction in: the handle's slot in di->a; the coordinates' slots
 * (geometry g, element type ct) pushed to vslots after whatever is there;
 * g < 0: the [h] of a query. */
static int tex_operand(dec *D, const ws_ptx_inst *in, dinst *di, const ws_ptx_operand *o, int g, int ct) {
  int t = WS_PTX_T_U64;
  if (o->kind == WS_PTX_O_ADDR && o->symkind == WS_PTX_S_NONE && g < 0 && o->imm == 0) {
    ws_ptx_operand r = *o; /* [h]: the handle register */
    r.kind = WS_PTX_O_REG;
    return ws_emu_dec_src(D, in, &r, t, &di->a);
  }
  if (o->kind != WS_PTX_O_TEXADDR || o->comp != 2) UNSUP("texture operand (a texture or surface object in a register, then its coordinates)");
  const ws_ptx_operand *h = &D->f->extra[o->reg], *c = &D->f->extra[o->reg + 1];
  if (h->kind != WS_PTX_O_REG) UNSUP("texture references (.texref); CUDA 13 has texture objects only");
  TRY(ws_emu_dec_src(D, in, h, t, &di->a));
  uint32_t n = c->kind == WS_PTX_O_VEC ? c->comp : 1;
  if (n != tex_ncoord[g]) UNSUP("texture coordinate count");
  for (uint32_t i = 0; i < n; i++) {
    const ws_ptx_operand *e = c->kind == WS_PTX_O_VEC ? &D->f->extra[c->reg + i] : c;
    uint32_t s;
    int et = (i == 0 && (g == TG_A1D || g == TG_A2D || g == TG_ACUBE)) ? WS_PTX_T_U32 : ct;
    if (e->kind == WS_PTX_O_SINK) TRY(ws_emu_dec_const(D, 0, &s));
    else TRY(ws_emu_dec_src(D, in, e, et, &s));
    TRY(ws_emu_dec_push_vs(D, s));
  }
  return WS_OK;
}

/* The live object of lane l's handle, or NULL after a fault. */
static const texobj *tex_obj(const xctx *X, const dinst *in, uint32_t l, uint64_t h, int surface) {
  const ws_emu_device *dev = X->B->L->dev;
  const texobj *t = h && h <= dev->ntexs && dev->texs[h - 1].live ? &dev->texs[h - 1] : NULL;
  if (!t || t->d.surface != surface) {
    fault_msg(X, in, l, FAULT_OTHER, h, "%s handle 0x%llx is not a live %s object", surface ? "surface" : "texture",
              (unsigned long long)h, surface ? "surface" : "texture");
    return NULL;
  }
  return t;
}

/* ---- texels ------------------------------------------------------------------ */

/* Host bytes of texel (x, y, z) of layer/face f (every index in range), or
 * NULL after a fault. */
static const uint8_t *texel_at(const xctx *X, const dinst *in, uint32_t l, const texobj *t, uint32_t x, uint32_t y,
                               uint32_t z, uint32_t f) {
  uint64_t a = t->d.addr + ((uint64_t)f * t->d.depth + z) * t->slice + (uint64_t)y * t->d.pitch + (uint64_t)x * t->texel;
  if (X->w->addr[l] == UINT64_MAX) X->w->addr[l] = a; /* the lane's address for the profiler: its first texel */
  return resolve(X->B, X->w, MS_GLOBAL, a, t->texel, l, 0, X->F, PC(in));
}

/* Channel c of texel p as the value a float-returning (fl) or integer
 * fetch sees. */
static double texel_chan(const texobj *t, const uint8_t *p, uint32_t c, int fl) {
  if (c >= t->d.nchan) return c == 3 ? 1.0 : 0.0;
  uint32_t b = t->d.chan_bits;
  uint64_t raw = rd(p + c * (b / 8), (int)(b / 8));
  if (t->d.kind == WS_EMU_CHAN_FLOAT)
    return b == 16 ? f64(ws_emu_num_cvt(raw, WS_NUM_F16, WS_NUM_F64, WS_NUM_RN, 0, 0)) : (double)f32(raw);
  if (t->d.kind == WS_EMU_CHAN_SIGNED) {
    int64_t v = (int64_t)ws_emu_num_sext(raw, (int)b);
    if (fl && t->d.read_normalized && b < 32) {
      double q = (double)v / (double)((1ll << (b - 1)) - 1);
      return q < -1 ? -1 : q;
    }
    return (double)v;
  }
  if (fl && t->d.read_normalized && b < 32) return (double)raw / (double)((1ull << b) - 1);
  return (double)raw;
}

/* An index i outside [0, n) by address mode am (unnormalised coordinates
 * treat wrap and mirror as clamp); -1 for the border. */
static int64_t tex_index(int64_t i, uint32_t n, int am, int norm) {
  if (i >= 0 && i < (int64_t)n) return i;
  if ((am == WS_EMU_ADDR_WRAP || am == WS_EMU_ADDR_MIRROR) && !norm) am = WS_EMU_ADDR_CLAMP;
  switch (am) {
  case WS_EMU_ADDR_BORDER: return -1;
  case WS_EMU_ADDR_WRAP: return ((i % n) + n) % n;
  case WS_EMU_ADDR_MIRROR: {
    int64_t p = ((i % (2 * (int64_t)n)) + 2 * (int64_t)n) % (2 * (int64_t)n);
    return p < (int64_t)n ? p : 2 * (int64_t)n - 1 - p;
  }
  default: return i < 0 ? 0 : (int64_t)n - 1;
  }
}

/* Texel (i, j, k) of face f into v[4] (the border colour when an index is
 * outside and the mode says so); 0, or -1 after a fault. */
static int tex_fetch(const xctx *X, const dinst *in, uint32_t l, const texobj *t, int64_t i, int64_t j, int64_t k,
                     uint32_t f, uint32_t w, uint32_t h, int fl, double v[4]) {
  const ws_emu_tex_desc *d = &t->d;
  int64_t ii = tex_index(i, w, d->addr_mode[0], d->normalized_coords);
  int64_t jj = tex_index(j, h, d->addr_mode[1], d->normalized_coords);
  int64_t kk = tex_index(k, d->depth, d->addr_mode[2], d->normalized_coords);
  if (ii < 0 || jj < 0 || kk < 0) {
    for (int c = 0; c < 4; c++) v[c] = d->border[c];
    return 0;
  }
  const uint8_t *p = texel_at(X, in, l, t, (uint32_t)ii, (uint32_t)jj, (uint32_t)kk, f);
  if (!p) return -1;
  for (uint32_t c = 0; c < 4; c++) v[c] = texel_chan(t, p, c, fl);
  return 0;
}

/* A linear-filtering weight: frac in 9-bit fixed point, 8 fractional bits. */
static inline double tex_weight(double frac) { return floor(frac * 256.0 + 0.5) / 256.0; }

/* The wrap or mirror of a normalised coordinate (other modes: itself). */
static inline double tex_norm_mode(double x, int am) {
  double fl = floor(x), fr = x - fl;
  if (am == WS_EMU_ADDR_WRAP) return fr;
  if (am == WS_EMU_ADDR_MIRROR) return ((int64_t)fl & 1) ? 1.0 - fr : fr;
  return x;
}

/* Sample texture t at coordinates u[dims] (face f, face size w x h) into
 * v[4]; gather >= 0: tld4 of that channel instead.  0, or -1 after a fault. */
static int tex_sample(const xctx *X, const dinst *in, uint32_t l, const texobj *t, const double *u, uint32_t dims,
                      uint32_t f, uint32_t w, uint32_t h, int fl, int gather, double v[4]) {
  const ws_emu_tex_desc *d = &t->d;
  uint32_t size[3] = {w, h, d->depth};
  double x[3] = {0, 0, 0};
  for (uint32_t a = 0; a < dims; a++) {
    double c = u[a];
    if (d->normalized_coords) c = tex_norm_mode(c, d->addr_mode[a]) * size[a];
    x[a] = c;
  }
  if (gather < 0 && (!d->filter_linear || !fl)) {
    int64_t i = (int64_t)floor(x[0]), j = dims > 1 ? (int64_t)floor(x[1]) : 0, k = dims > 2 ? (int64_t)floor(x[2]) : 0;
    return tex_fetch(X, in, l, t, i, j, k, f, w, h, fl, v);
  }
  int64_t i0[3] = {0, 0, 0};
  double al[3] = {0, 0, 0};
  for (uint32_t a = 0; a < dims; a++) {
    double b = x[a] - 0.5, fb = floor(b);
    i0[a] = (int64_t)fb;
    al[a] = tex_weight(b - fb);
  }
  if (gather >= 0) { /* {T(i, j+1), T(i+1, j+1), T(i+1, j), T(i, j)} of one channel */
    static const int di_[4] = {0, 1, 1, 0}, dj_[4] = {1, 1, 0, 0};
    for (int q = 0; q < 4; q++) {
      double tv[4];
      if (tex_fetch(X, in, l, t, i0[0] + di_[q], i0[1] + dj_[q], 0, f, w, h, fl, tv)) return -1;
      v[q] = tv[gather];
    }
    return 0;
  }
  double acc[4] = {0, 0, 0, 0};
  uint32_t corners = 1u << dims;
  for (uint32_t q = 0; q < corners; q++) {
    double wt = 1, tv[4];
    int64_t ix[3] = {i0[0], i0[1], i0[2]};
    for (uint32_t a = 0; a < dims; a++) {
      int up = (q >> a) & 1;
      ix[a] += up;
      wt *= up ? al[a] : 1.0 - al[a];
    }
    if (tex_fetch(X, in, l, t, ix[0], ix[1], ix[2], f, w, h, fl, tv)) return -1;
    for (int c = 0; c < 4; c++) acc[c] += wt * tv[c];
  }
  for (int c = 0; c < 4; c++) v[c] = acc[c];
  return 0;
}

/* Cube map face and face coordinates s, t in [0, 1] of direction (x, y, z)
 * (the Programming Guide's table "Cubemap Fetch"). */
static uint32_t cube_face(double x, double y, double z, double *s, double *t) {
  double ax = fabs(x), ay = fabs(y), az = fabs(z), ma, sc, tc;
  uint32_t f;
  if (ax >= ay && ax >= az) {
    f = x >= 0 ? 0 : 1;
    ma = ax;
    sc = x >= 0 ? -z : z;
    tc = -y;
  } else if (ay >= az) {
    f = y >= 0 ? 2 : 3;
    ma = ay;
    sc = x;
    tc = y >= 0 ? z : -z;
  } else {
    f = z >= 0 ? 4 : 5;
    ma = az;
    sc = z >= 0 ? x : -x;
    tc = -y;
  }
  *s = ma > 0 ? (sc / ma + 1) / 2 : 0.5;
  *t = ma > 0 ? (tc / ma + 1) / 2 : 0.5;
  return f;
}

/* ---- tex, tld4 ------------------------------------------------------------------ */

/* tex{.level,.grad}.geom.v4.dtype.ctype d, [t, c]{, lod | dPdx, dPdy};
 * tld4.comp.2d.v4.dtype.f32 d, [t, c].  dinst: a the handle; vslots: the 4
 * destinations, then the coordinates; mode the geometry; ty 0 f32, 1 s32,
 * 2 u32 results; bop 1 for float coordinates; sat: tld4's channel + 1. */
DECODER(tex) {
  int g = tex_geom(in->geom);
  (void)T;
  if (g < 0 || in->ntypes != 2 || in->vec != 4) UNSUP("texture geometry or shape");
  int dt = in->type[0], ct = in->type[1];
  if ((dt != WS_PTX_T_F32 && dt != WS_PTX_T_S32 && dt != WS_PTX_T_U32) || (ct != WS_PTX_T_F32 && ct != WS_PTX_T_S32))
    UNSUP("texture result or coordinate type");
  if (in->ops[1].flags & WS_PTX_OF_PIPE) UNSUP("sparse texture residency predicate");
  int gather = in->op == WS_PTX_OP_TLD4;
  if (gather && g != TG_2D) UNSUP("tld4 geometry other than 2d");
  if (gather && ct != WS_PTX_T_F32) UNSUP("tld4 coordinate type");
  di->op = D_TEX;
  di->mode = (uint8_t)g;
  di->ty = (uint8_t)(dt == WS_PTX_T_F32 ? 0 : dt == WS_PTX_T_S32 ? 1 : 2);
  di->bop = ct == WS_PTX_T_F32;
  if (gather) {
    int c = in->mode == WS_PTX_MOD_R ? 0 : ws_ptx_inst_has(in, WS_PTX_MOD_TLD4_G) ? 1
            : ws_ptx_inst_has(in, WS_PTX_MOD_B) ? 2 : ws_ptx_inst_has(in, WS_PTX_MOD_TLD4_A) ? 3 : -1;
    if (c < 0) UNSUP("tld4 channel");
    di->sat = (uint8_t)(c + 1);
  }
  TRY(ws_emu_dec_vec(D, in, &in->ops[0], WS_PTX_T_B32, 1, di));
  if (di->vec != 4) UNSUP("texture result vector");
  uint32_t vb = di->vbase;
  TRY(tex_operand(D, in, di, &in->ops[1], g, ct));
  di->vbase = vb;
  di->vec = 4;
  di->hookmem = 1;
  di->space = MS_GLOBAL;
  di->size = 4;
  return WS_OK;
}

LIB_EXEC(TEX) {
  const uint32_t *vs = X->F->vslots + in->vbase;
  const uint64_t *H = lanes(X, in->a);
  const int g = in->mode, fl = in->ty == 0, gather = (int)in->sat - 1;
  const uint32_t nc = tex_ncoord[g];
  LANES(m, {
    const texobj *t = tex_obj(X, in, l, H[l], 0);
    if (!t) return FL_FAULT;
    const ws_emu_tex_desc *d = &t->d;
    double c[4], v[4];
    for (uint32_t i = 0; i < nc; i++) {
      uint64_t r = lanes(X, vs[4 + i])[l];
      int layer = i == 0 && (g == TG_A1D || g == TG_A2D || g == TG_ACUBE);
      c[i] = layer || !in->bop ? (double)(int32_t)r : (double)f32(r);
    }
    uint32_t layer = 0, dims = g == TG_1D || g == TG_A1D ? 1 : g == TG_3D ? 3 : 2;
    const double *u = c;
    if (g == TG_A1D || g == TG_A2D || g == TG_ACUBE) {
      int64_t li = (int64_t)c[0];
      uint32_t nl = d->layers ? d->layers : 1;
      layer = li < 0 ? 0 : li >= nl ? nl - 1 : (uint32_t)li; /* a layer outside is clamped */
      u = c + 1;
    }
    X->w->addr[l] = UINT64_MAX; /* set by the first texel read (texel_at) */
    if (!in->bop) { /* integer coordinates (tex1Dfetch): no filtering, zero outside a linear resource */
      int64_t i = (int64_t)u[0], j = dims > 1 ? (int64_t)u[1] : 0, k = dims > 2 ? (int64_t)u[2] : 0;
      if (d->linear_memory && (i < 0 || i >= d->width)) {
        v[0] = v[1] = v[2] = v[3] = 0;
      } else if (tex_fetch(X, in, l, t, i, j, k, layer, d->width, d->height, fl, v)) {
        return FL_FAULT;
      }
    } else if (g == TG_CUBE || g == TG_ACUBE) {
      double st[2];
      uint32_t face = cube_face(u[0], u[1], u[2], &st[0], &st[1]);
      ws_emu_tex_desc nd = *d; /* faces take normalised coordinates */
      texobj face_t = *t;
      nd.normalized_coords = 1;
      face_t.d = nd;
      if (tex_sample(X, in, l, &face_t, st, 2, layer * 6 + face, d->width, d->width, fl, -1, v)) return FL_FAULT;
    } else if (tex_sample(X, in, l, t, u, dims, layer, d->width, d->height, fl, gather, v)) {
      return FL_FAULT;
    }
    if (X->w->addr[l] == UINT64_MAX) X->w->addr[l] = d->addr; /* only border texels */
    for (uint32_t q = 0; q < 4; q++) {
      uint64_t bits = fl ? bf32((float)v[q]) : (uint32_t)(int64_t)v[q];
      lanes(X, vs[q])[l] = bits;
    }
  });
  return FL_NEXT;
}

/* ---- txq, suq ------------------------------------------------------------------- */

/* txq.query.b32 d, [t]; suq.query.b32 d, [s] */
DECODER(txq) {
  (void)T;
  static const int q[] = {WS_PTX_MOD_WIDTH, WS_PTX_MOD_HEIGHT, WS_PTX_MOD_DEPTH, WS_PTX_MOD_ARRAY_SIZE,
                          WS_PTX_MOD_NORMALIZED_COORDS, WS_PTX_MOD_FILTER_MODE, WS_PTX_MOD_ADDR_MODE_0,
                          WS_PTX_MOD_ADDR_MODE_1, WS_PTX_MOD_ADDR_MODE_2, WS_PTX_MOD_NUM_MIPMAP_LEVELS,
                          WS_PTX_MOD_NUM_SAMPLES, WS_PTX_MOD_CHANNEL_DATA_TYPE, WS_PTX_MOD_CHANNEL_ORDER,
                          WS_PTX_MOD_MEMORY_LAYOUT};
  int k = -1;
  for (int i = 0; i < (int)(sizeof q / sizeof *q); i++)
    if (ws_ptx_inst_has(in, (ws_ptx_mod)q[i])) k = i;
  if (k < 0 || k >= 11 || ws_ptx_inst_has(in, WS_PTX_MOD_LEVEL) || in->nops != 2) UNSUP("texture query");
  di->op = D_TXQ;
  di->mode = (uint8_t)k;
  di->sat = in->op == WS_PTX_OP_SUQ;
  DST(0);
  return tex_operand(D, in, di, &in->ops[1], -1, 0);
}
EXEC(TXQ) {
  const uint64_t *H = lanes(X, in->a);
  uint64_t *Dd = lanes(X, in->d);
  LANES(m, {
    const texobj *t = tex_obj(X, in, l, H[l], in->sat);
    if (!t) return FL_FAULT;
    const ws_emu_tex_desc *d = &t->d;
    uint32_t v;
    switch (in->mode) {
    case 0: v = d->width; break;
    case 1: v = d->height; break;
    case 2: v = d->depth; break;
    case 3: v = d->layers; break;
    case 4: v = (uint32_t)d->normalized_coords; break;
    case 5: v = (uint32_t)d->filter_linear; break;
    case 6: case 7: case 8: v = (uint32_t)d->addr_mode[in->mode - 6]; break;
    case 9: v = 1; break;
    default: v = 0; break;
    }
    Dd[l] = v;
  });
  return FL_NEXT;
}

/* ---- suld, sust -------------------------------------------------------------------- */

/* suld.b.geom{.vN}.dtype.mode d, [s, c]; sust.b.geom{.vN}.ctype.mode [s, c], a
 * (mode .trap, .clamp or .zero; x in bytes).  dinst: a the handle; vslots:
 * the coordinates, then the values (from e); size the element bytes; vec;
 * bop the boundary mode: 0 trap, 1 clamp, 2 zero. */
DECODER(suld_sust) {
  int st = in->op == WS_PTX_OP_SUST, g = tex_geom(in->geom);
  (void)T;
  if (!ws_ptx_inst_has(in, WS_PTX_MOD_B) || g < 0 || g == TG_CUBE || g == TG_ACUBE || in->ntypes != 1)
    UNSUP("surface access other than .b (binary) on 1d, 2d, 3d, a1d or a2d");
  int t = in->type[0], bits = tbits(t);
  if (bits < 8 || bits > 64) UNSUP("surface element type");
  di->op = st ? D_SUST : D_SULD;
  di->mode = (uint8_t)g;
  di->size = (uint8_t)(bits / 8);
  di->bop = (uint8_t)(ws_ptx_inst_has(in, WS_PTX_MOD_CLAMP) ? 1 : ws_ptx_inst_has(in, WS_PTX_MOD_ZERO) ? 2 : 0);
  di->vbase = D->nvs;
  TRY(tex_operand(D, in, di, &in->ops[st ? 0 : 1], g, WS_PTX_T_S32));
  uint32_t vb = di->vbase;
  TRY(ws_emu_dec_vec(D, in, &in->ops[st ? 1 : 0], t, !st, di));
  if (di->vec != in->vec) UNSUP("surface vector width");
  di->e = di->vbase; /* the values */
  di->vbase = vb;
  di->hookmem = 1;
  di->space = MS_GLOBAL;
  di->wmask = wmask_of(bits);
  if (!st && in->ops[0].kind == WS_PTX_O_VEC && D->f->extra[in->ops[0].reg].kind == WS_PTX_O_REG)
    di->wmask = wmask_of(reg_bits(D, D->f->extra[in->ops[0].reg].reg));
  else if (!st && in->ops[0].kind == WS_PTX_O_REG)
    di->wmask = wmask_of(reg_bits(D, in->ops[0].reg));
  return WS_OK;
}

/* Lane l's surface element address, or 0 when out of range with .zero;
 * UINT64_MAX after a fault. */
static uint64_t surf_addr(const xctx *X, const dinst *in, uint32_t l, const texobj *t, const uint32_t *vs) {
  const ws_emu_tex_desc *d = &t->d;
  int g = in->mode, arr = g == TG_A1D || g == TG_A2D;
  uint32_t n = tex_ncoord[g], esz = (uint32_t)in->size * in->vec;
  int64_t c[4] = {0, 0, 0, 0};
  for (uint32_t i = 0; i < n; i++) c[i] = (int32_t)lanes(X, vs[i])[l];
  int64_t layer = arr ? c[0] : 0, x = arr ? c[1] : c[0], y = g == TG_A2D ? c[2] : g == TG_2D || g == TG_3D ? c[1] : 0,
          z = g == TG_3D ? c[2] : 0;
  int64_t xmax = (int64_t)d->width * t->texel - esz, nl = d->layers ? d->layers : 1;
  int out = x < 0 || x > xmax || y < 0 || y >= d->height || z < 0 || z >= d->depth || layer < 0 || layer >= nl;
  if (out && in->bop == 2) return 0;
  if (out && in->bop == 0) {
    fault_msg(X, in, l, FAULT_OTHER, (uint64_t)x,
              "surface access at (x %lld bytes, y %lld, z %lld, layer %lld) outside the surface (%u x %u x %u texels of "
              "%u bytes, %u layers)",
              (long long)x, (long long)y, (long long)z, (long long)layer, d->width, d->height, d->depth, t->texel,
              d->layers);
    return UINT64_MAX;
  }
#define CLAMP(v, hi) ((v) < 0 ? 0 : (v) > (hi) ? (hi) : (v))
  x = CLAMP(x, xmax);
  y = CLAMP(y, (int64_t)d->height - 1);
  z = CLAMP(z, (int64_t)d->depth - 1);
  layer = CLAMP(layer, nl - 1);
#undef CLAMP
  return d->addr + ((uint64_t)layer * d->depth + (uint64_t)z) * t->slice + (uint64_t)y * d->pitch + (uint64_t)x;
}

EXECUTOR int suld_sust(const xctx *X, const dinst *in, uint32_t m, int st) {
  const uint32_t *vs = X->F->vslots + in->vbase, *val = X->F->vslots + in->e;
  const uint64_t *H = lanes(X, in->a);
  LANES(m, {
    const texobj *t = tex_obj(X, in, l, H[l], 1);
    if (!t) return FL_FAULT;
    uint64_t a = surf_addr(X, in, l, t, vs);
    if (a == UINT64_MAX) return FL_FAULT;
    X->w->addr[l] = a ? a : t->d.addr;
    if (!a) { /* .zero: outside reads zeros, writes nothing */
      if (!st)
        for (uint32_t e = 0; e < in->vec; e++) lanes(X, val[e])[l] = 0;
      continue;
    }
    uint8_t *p = resolve(X->B, X->w, MS_GLOBAL, a, (uint32_t)in->size * in->vec, l, st, X->F, PC(in));
    if (!p) return FL_FAULT;
    for (uint32_t e = 0; e < in->vec; e++) {
      if (st) wr(p + e * in->size, in->size, lanes(X, val[e])[l]);
      else lanes(X, val[e])[l] = rd(p + e * in->size, in->size) & in->wmask;
    }
  });
  return FL_NEXT;
}
EXEC(SULD) { return suld_sust(X, in, m, 0); }
EXEC(SUST) { return suld_sust(X, in, m, 1); }
