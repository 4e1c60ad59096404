/*
 * model/transit.h — the equilibrium of the Transit model (Li, Tay,
 * Kumar & Corporaal, HPDC'15), as a pure function of its five inputs.
 *
 * The "transit" model (src/model/transit.c) fills ws_transit_params from a
 * profile and a GPU; the transit chart (src/report/charts.c) redraws the
 * curves from the same parameters.  docs/models/transit.md has the
 * equations and every unit choice.  Internal to the library (src/): the
 * model, the advisor and the chart share it; it is not public.
 *
 * Units, all per SM:
 *   threads               n, k, x, k_delta, m
 *   GB/s (1e9 bytes/s)    memory-system throughput: f(k), g(x), r
 *   Gops/s                computation-system throughput G(x), p; one "op"
 *                         is one thread executing one instruction (the
 *                         paper's unit-cost operation of one lane)
 *   ops/byte              z_ops_per_byte: thread instructions per DRAM byte
 *
 *   f(k) = r * min(k, k_delta) / k_delta            supply of the memory system
 *   G(x) = p * min(x, m) / m                        computation throughput, (1)
 *   g(x) = G(x) / z_ops_per_byte                    demand on memory, (2)
 *   f(k) = g(x),  k + x = n                          flow balance, (3)
 *
 * Nothing here allocates; no ownership questions.
 */
#ifndef WS_MODEL_TRANSIT_H
#define WS_MODEL_TRANSIT_H

#include "warpsight/model.h"
#include "warpsight/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The four bounds of Section 2.4, in the paper's order. */
typedef enum ws_transit_bound {
  WS_TRANSIT_THREAD,      /* both curves meet on their slopes (Fig. 11, 12) */
  WS_TRANSIT_MEMORY,      /* on the flat part of f, slope of g (Fig. 13, 14) */
  WS_TRANSIT_COMPUTATION, /* on the flat part of g, slope of f (Fig. 15, 16) */
  WS_TRANSIT_CAPACITY     /* both flat: M/Z = R (Fig. 17) */
} ws_transit_bound;

/* Two ceilings count as equal (capacity bound) within this relative
 * tolerance: measured R and P are not known to better than a percent. */
#define WS_TRANSIT_CAPACITY_TOL 0.01

typedef struct ws_transit_params {
  double n;              /* resident threads per SM */
  double k_delta;        /* delta abscissa: threads in MS at the MS transition */
  double r;              /* delta ordinate R: peak MS throughput, GB/s per SM */
  double m;              /* pi abscissa M: lanes (threads) at the CS transition */
  double p;              /* pi ordinate: peak CS throughput, Gops/s per SM */
  double z_ops_per_byte; /* Z: thread instructions per DRAM byte; INFINITY = no DRAM traffic */
} ws_transit_params;

typedef struct ws_transit_eq {
  double k;                /* threads in the memory system at equilibrium */
  double x;                /* threads in the computation system (n - k) */
  double ms_gbs;           /* f(k) = g(x): MS throughput, GB/s per SM */
  double cs_gops;          /* G(x) = Z * f(k): CS throughput, Gops/s per SM */
  double g_ceiling_gbs;    /* p / Z: height of the flat part of g, GB/s */
  ws_transit_bound bound;  /* which bound holds */
} ws_transit_eq;

/* The curves (x, k clamped to >= 0). */
double ws_model_transit_f(const ws_transit_params *tp, double k);
double ws_model_transit_cs(const ws_transit_params *tp, double x);  /* G(x) */
double ws_model_transit_g(const ws_transit_params *tp, double x);   /* G(x) / Z */

/* Solve f(n - x) = g(x) exactly (closed form on the one pair of linear
 * pieces that holds the intersection) and classify the bound.  WS_EINVAL
 * with a diagnostic for a non-positive or non-finite parameter. */
int ws_model_transit_solve(ws_transit_eq *out, const ws_transit_params *tp,
                     ws_diag *d);

/* The bound as the models' enum (model_bounds.def holds the texts below). */
ws_model_bound ws_model_transit_bound(ws_transit_bound b);
/* "thread", "memory", "computation", "capacity". */
const char *ws_model_transit_bound_name(ws_transit_bound b);
/* The paper's optimisation direction for the bound: one short line (the
 * model's limiter), and the full advice with examples (the advisor's). */
const char *ws_model_transit_direction(ws_transit_bound b);
const char *ws_model_transit_explain(ws_transit_bound b);

#ifdef __cplusplus
}
#endif
#endif
