/*
 * transit_eq.c — the equilibrium of the Transit model (model/transit.h):
 * the two roofline-shaped curves and their exact intersection.
 *
 * h(k) = f(k) - g(n - k) rises with k from -g(n) <= 0 at k = 0 to f(n) >= 0
 * at k = n, so the equilibrium exists; both curves are linear between their
 * corners (delta for f, pi for g), so it is found in closed form on the one
 * pair of pieces that holds it.  docs/models/transit.md has the derivation.
 */
#include "model/transit.h"

#include <math.h>
#include <string.h>

/* Relative slack for "lies on this piece" tests, so that an intersection at
 * a corner (delta or pi) is found whatever the rounding. */
#define SLACK 1e-12

double ws_model_transit_f(const ws_transit_params *tp, double k) {
  if (k <= 0) return 0;
  return tp->r * (k < tp->k_delta ? k : tp->k_delta) / tp->k_delta;
}

double ws_model_transit_cs(const ws_transit_params *tp, double x) {
  if (x <= 0) return 0;
  return tp->p * (x < tp->m ? x : tp->m) / tp->m; /* (1), scaled to p */
}

double ws_model_transit_g(const ws_transit_params *tp, double x) {
  if (isinf(tp->z_ops_per_byte)) return 0;
  return ws_model_transit_cs(tp, x) / tp->z_ops_per_byte; /* (2) */
}

ws_model_bound ws_model_transit_bound(ws_transit_bound b) {
  switch (b) {
  case WS_TRANSIT_THREAD: return WS_BOUND_TRANSIT_THREAD;
  case WS_TRANSIT_MEMORY: return WS_BOUND_TRANSIT_MEMORY;
  case WS_TRANSIT_COMPUTATION: return WS_BOUND_TRANSIT_COMPUTATION;
  case WS_TRANSIT_CAPACITY: return WS_BOUND_TRANSIT_CAPACITY;
  }
  return WS_BOUND_NONE;
}

/* The texts live in model_bounds.def; WS_BOUND_NONE's are "". */
const char *ws_model_transit_bound_name(ws_transit_bound b) {
  const char *s = ws_model_bound_info(ws_model_transit_bound(b))->name;
  return *s ? s : "?";
}

const char *ws_model_transit_direction(ws_transit_bound b) {
  const char *s = ws_model_bound_info(ws_model_transit_bound(b))->limiter;
  return *s ? s : "?";
}

const char *ws_model_transit_explain(ws_transit_bound b) {
  const char *s = ws_model_bound_info(ws_model_transit_bound(b))->advice;
  return *s ? s : "?";
}

static int bad_param(ws_diag *d, const char *name, double v) {
  return ws_diag_error(d, "transit: %s = %g must be a finite number > 0", name,
                       v);
}

int ws_model_transit_solve(ws_transit_eq *out, const ws_transit_params *tp,
                     ws_diag *d) {
  memset(out, 0, sizeof *out);
  const struct { const char *name; double v; } req[] = {
      {"n", tp->n},   {"k_delta", tp->k_delta}, {"R", tp->r},
      {"M", tp->m},   {"pi value", tp->p}};
  for (size_t i = 0; i < sizeof req / sizeof req[0]; i++)
    if (!(req[i].v > 0) || !isfinite(req[i].v))
      return bad_param(d, req[i].name, req[i].v);
  if (!(tp->z_ops_per_byte > 0)) /* NaN or <= 0; +inf is allowed */
    return bad_param(d, "Z", tp->z_ops_per_byte);

  const double n = tp->n, kd = tp->k_delta, r = tp->r, m = tp->m;
  if (isinf(tp->z_ops_per_byte)) {
    /* No DRAM traffic: g is 0 everywhere, so every thread computes. */
    out->k = 0;
    out->x = n;
    out->ms_gbs = 0;
    out->cs_gops = ws_model_transit_cs(tp, n);
    out->g_ceiling_gbs = 0;
    out->bound = n >= m ? WS_TRANSIT_COMPUTATION : WS_TRANSIT_THREAD;
    return WS_OK;
  }

  const double a = r / kd;                    /* slope of f, GB/s per thread */
  const double b = tp->p / (m * tp->z_ops_per_byte); /* slope of g */
  const double h = tp->p / tp->z_ops_per_byte;       /* ceiling of g = M/Z */
  double k;
  double k1 = b * n / (a + b);     /* slopes: a k = b (n - k) */
  double x2 = r / b;               /* f flat, g sloping: R = b x */
  double k3 = h / a;               /* f sloping, g flat: a k = M/Z */
  if (fabs(h - r) <= SLACK * r && n >= kd + m)
    k = kd; /* both flat, R = M/Z: any k in [kd, n - m]; take the least */
  else if (k1 <= kd * (1 + SLACK) && n - k1 <= m * (1 + SLACK))
    k = k1;
  else if (n - x2 >= kd * (1 - SLACK) && x2 <= m * (1 + SLACK))
    k = n - x2;
  else if (k3 <= kd * (1 + SLACK) && n - k3 >= m * (1 - SLACK))
    k = k3;
  else
    k = kd; /* unreachable: h(k) = f(k) - g(n - k) rises from <= 0 to >= 0 */
  if (k < 0) k = 0;
  if (k > n) k = n;
  out->k = k;
  out->x = n - k;
  out->cs_gops = ws_model_transit_cs(tp, out->x);
  out->ms_gbs = ws_model_transit_f(tp, k);
  out->g_ceiling_gbs = h;

  /* Classify.  At delta itself the paper calls the machine thread bound
   * (Fig. 13, 14: "becomes thread bound when g(x) coincides delta"); at pi
   * computation bound (Fig. 11: "until pi touches f(k)"). */
  int f_flat = out->k > kd * (1 + 1e-9);
  int g_flat = out->x >= m * (1 - 1e-9);
  if (fabs(h - r) <= WS_TRANSIT_CAPACITY_TOL * r && n >= kd + m)
    out->bound = WS_TRANSIT_CAPACITY;
  else if (f_flat && g_flat)
    out->bound = WS_TRANSIT_CAPACITY;
  else if (f_flat)
    out->bound = WS_TRANSIT_MEMORY;
  else if (g_flat)
    out->bound = WS_TRANSIT_COMPUTATION;
  else
    out->bound = WS_TRANSIT_THREAD;
  return WS_OK;
}
