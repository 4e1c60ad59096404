/*
 * scatter.c — scatter charts (predicted against measured time) with cairo.
 *
 * Layout: title on top, the plot frame with decade grid lines and tick
 * labels (10^k written as 1e-3 ... ), axis labels, the y = x line, one
 * colour and marker per series, and a legend box in the plot's upper-left
 * corner.  The same drawing code serves PNG (image surface) and SVG.
 */
#include "report/scatter.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#ifdef WS_HAVE_CAIRO
#include <cairo-svg.h>
#include <cairo.h>

/* Tableau 10: distinguishable, and readable for most colour-blind readers. */
static const double palette[][3] = {
    {0.122, 0.467, 0.706}, {1.000, 0.498, 0.055}, {0.173, 0.627, 0.173},
    {0.839, 0.153, 0.157}, {0.580, 0.404, 0.741}, {0.549, 0.337, 0.294},
    {0.890, 0.467, 0.761}, {0.498, 0.498, 0.498}, {0.737, 0.741, 0.133},
    {0.090, 0.745, 0.812}};
#define NPALETTE (sizeof palette / sizeof palette[0])

typedef struct axis {
  double lo, hi;  /* data range shown (log10 when log) */
  int log;        /* 1: values are mapped through log10 */
} axis;

static double tr(const axis *a, double v) { return a->log ? log10(v) : v; }

static int usable(const axis *a, double v) { return isfinite(v) && (!a->log || v > 0); }

/* Marker shape k at (x, y), radius r. */
static void marker(cairo_t *cr, int k, double x, double y, double r) {
  switch (k % 4) {
  case 0: cairo_arc(cr, x, y, r, 0, 2 * M_PI); break;
  case 1: cairo_rectangle(cr, x - r * 0.85, y - r * 0.85, 1.7 * r, 1.7 * r); break;
  case 2:
    cairo_move_to(cr, x, y - r * 1.1);
    cairo_line_to(cr, x + r, y + r * 0.8);
    cairo_line_to(cr, x - r, y + r * 0.8);
    cairo_close_path(cr);
    break;
  default:
    cairo_move_to(cr, x, y - r * 1.15);
    cairo_line_to(cr, x + r * 1.15, y);
    cairo_line_to(cr, x, y + r * 1.15);
    cairo_line_to(cr, x - r * 1.15, y);
    cairo_close_path(cr);
    break;
  }
}

static void tick_label(char *buf, size_t n, double v, int log) {
  if (log) {
    int e = (int)lround(v);
    if (e >= 0 && e <= 3) snprintf(buf, n, "%g", pow(10, e));
    else if (e < 0 && e >= -2) snprintf(buf, n, "%g", pow(10, e));
    else snprintf(buf, n, "1e%d", e);
  } else {
    snprintf(buf, n, "%g", v);
  }
}

static void draw(cairo_t *cr, double W, double H, const ws_scatter_spec *s,
                 const ws_scatter_series *series, size_t ns) {
  axis ax = {INFINITY, -INFINITY, s->loglog}, ay = ax;
  for (size_t k = 0; k < ns; k++)
    for (size_t i = 0; i < series[k].n; i++) {
      double x = series[k].x[i], y = series[k].y[i];
      if (!usable(&ax, x) || !usable(&ay, y)) continue;
      ax.lo = fmin(ax.lo, tr(&ax, x)), ax.hi = fmax(ax.hi, tr(&ax, x));
      ay.lo = fmin(ay.lo, tr(&ay, y)), ay.hi = fmax(ay.hi, tr(&ay, y));
    }
  if (!(ax.lo <= ax.hi)) ax.lo = ay.lo = -1, ax.hi = ay.hi = 1;
  if (s->diagonal) { /* same range on both axes, so y = x is the diagonal */
    double lo = fmin(ax.lo, ay.lo), hi = fmax(ax.hi, ay.hi);
    ax.lo = ay.lo = lo, ax.hi = ay.hi = hi;
  }
  if (s->loglog) { /* whole decades */
    ax.lo = floor(ax.lo), ax.hi = ceil(ax.hi), ay.lo = floor(ay.lo), ay.hi = ceil(ay.hi);
  }
  if (ax.hi - ax.lo < 1e-12) ax.lo -= 1, ax.hi += 1;
  if (ay.hi - ay.lo < 1e-12) ay.lo -= 1, ay.hi += 1;

  double L = 95, R = W - 30, T = 60, B = H - 75; /* plot frame */
#define PX(v) (L + ((v) - ax.lo) / (ax.hi - ax.lo) * (R - L))
#define PY(v) (B - ((v) - ay.lo) / (ay.hi - ay.lo) * (B - T))

  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_text_extents_t te;

  /* grid and ticks: decades (log) or ~8 steps (linear) */
  double stepx = s->loglog ? 1 : (ax.hi - ax.lo) / 8, stepy = s->loglog ? 1 : (ay.hi - ay.lo) / 8;
  int nx = (int)lround((ax.hi - ax.lo) / stepx), ny = (int)lround((ay.hi - ay.lo) / stepy);
  int skipx = nx > 12 ? (nx + 11) / 12 : 1, skipy = ny > 12 ? (ny + 11) / 12 : 1;
  cairo_set_line_width(cr, 1);
  cairo_set_font_size(cr, 14);
  char buf[64];
  for (int i = 0; i <= nx; i++) {
    double v = ax.lo + i * stepx, x = PX(v);
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    cairo_move_to(cr, x, T), cairo_line_to(cr, x, B), cairo_stroke(cr);
    if (i % skipx) continue;
    tick_label(buf, sizeof buf, v, s->loglog);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    cairo_text_extents(cr, buf, &te);
    cairo_move_to(cr, x - te.width / 2 - te.x_bearing, B + 22), cairo_show_text(cr, buf);
  }
  for (int i = 0; i <= ny; i++) {
    double v = ay.lo + i * stepy, y = PY(v);
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    cairo_move_to(cr, L, y), cairo_line_to(cr, R, y), cairo_stroke(cr);
    if (i % skipy) continue;
    tick_label(buf, sizeof buf, v, s->loglog);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    cairo_text_extents(cr, buf, &te);
    cairo_move_to(cr, L - 8 - te.width - te.x_bearing, y + te.height / 2), cairo_show_text(cr, buf);
  }
  if (s->loglog) { /* minor ticks at 2..9 x 10^k */
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    for (int i = 0; i < nx; i++)
      for (int m = 2; m <= 9; m++) {
        double x = PX(ax.lo + i + log10(m));
        cairo_move_to(cr, x, B), cairo_line_to(cr, x, B - 5), cairo_stroke(cr);
      }
    for (int i = 0; i < ny; i++)
      for (int m = 2; m <= 9; m++) {
        double y = PY(ay.lo + i + log10(m));
        cairo_move_to(cr, L, y), cairo_line_to(cr, L + 5, y), cairo_stroke(cr);
      }
  }
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  cairo_set_line_width(cr, 1.5);
  cairo_rectangle(cr, L, T, R - L, B - T);
  cairo_stroke(cr);

  /* y = x */
  if (s->diagonal) {
    double lo = fmax(ax.lo, ay.lo), hi = fmin(ax.hi, ay.hi);
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_set_line_width(cr, 1.2);
    double dash[] = {6, 4};
    cairo_set_dash(cr, dash, 2, 0);
    cairo_move_to(cr, PX(lo), PY(lo)), cairo_line_to(cr, PX(hi), PY(hi));
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
  }

  /* points */
  cairo_save(cr);
  cairo_rectangle(cr, L, T, R - L, B - T);
  cairo_clip(cr);
  for (size_t k = 0; k < ns; k++) {
    const double *c = palette[k % NPALETTE];
    for (size_t i = 0; i < series[k].n; i++) {
      double x = series[k].x[i], y = series[k].y[i];
      if (!usable(&ax, x) || !usable(&ay, y)) continue;
      marker(cr, (int)(k / NPALETTE + k), PX(tr(&ax, x)), PY(tr(&ay, y)), 4);
      cairo_set_source_rgba(cr, c[0], c[1], c[2], 0.55);
      cairo_fill_preserve(cr);
      cairo_set_source_rgba(cr, c[0] * 0.7, c[1] * 0.7, c[2] * 0.7, 0.9);
      cairo_set_line_width(cr, 0.8);
      cairo_stroke(cr);
    }
  }
  cairo_restore(cr);

  /* title and axis labels */
  cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
  cairo_set_font_size(cr, 18);
  if (s->title) {
    cairo_text_extents(cr, s->title, &te);
    cairo_move_to(cr, (L + R) / 2 - te.width / 2 - te.x_bearing, 36);
    cairo_show_text(cr, s->title);
  }
  cairo_set_font_size(cr, 15);
  if (s->xlabel) {
    cairo_text_extents(cr, s->xlabel, &te);
    cairo_move_to(cr, (L + R) / 2 - te.width / 2 - te.x_bearing, H - 22);
    cairo_show_text(cr, s->xlabel);
  }
  if (s->ylabel) {
    cairo_text_extents(cr, s->ylabel, &te);
    cairo_save(cr);
    cairo_move_to(cr, 28, (T + B) / 2 + te.width / 2);
    cairo_rotate(cr, -M_PI / 2);
    cairo_show_text(cr, s->ylabel);
    cairo_restore(cr);
  }

  /* legend */
  cairo_set_font_size(cr, 13);
  double lw = 0;
  size_t shown = 0;
  for (size_t k = 0; k < ns; k++) {
    if (!series[k].n) continue;
    cairo_text_extents(cr, series[k].label, &te);
    lw = fmax(lw, te.x_advance);
    shown++;
  }
  static const char diag_label[] = "y = x (exact prediction)";
  if (s->diagonal) {
    cairo_text_extents(cr, diag_label, &te);
    lw = fmax(lw, te.x_advance);
  }
  if (shown || s->diagonal) {
    size_t lines = shown + (s->diagonal ? 1 : 0);
    double lx = L + 12, ly = T + 12, row = 20, bw = lw + 42, bh = (double)lines * row + 10;
    cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
    cairo_rectangle(cr, lx, ly, bw, bh);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    size_t j = 0;
    for (size_t k = 0; k < ns; k++) {
      if (!series[k].n) continue;
      const double *c = palette[k % NPALETTE];
      double cy = ly + 5 + row * ((double)j + 0.5);
      marker(cr, (int)(k / NPALETTE + k), lx + 16, cy, 5);
      cairo_set_source_rgb(cr, c[0], c[1], c[2]);
      cairo_fill(cr);
      cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
      cairo_move_to(cr, lx + 30, cy + 4.5);
      cairo_show_text(cr, series[k].label);
      j++;
    }
    if (s->diagonal) {
      double cy = ly + 5 + row * ((double)j + 0.5);
      double dash[] = {6, 4};
      cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
      cairo_set_line_width(cr, 1.2);
      cairo_set_dash(cr, dash, 2, 0);
      cairo_move_to(cr, lx + 6, cy), cairo_line_to(cr, lx + 26, cy), cairo_stroke(cr);
      cairo_set_dash(cr, NULL, 0, 0);
      cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
      cairo_move_to(cr, lx + 30, cy + 4.5);
      cairo_show_text(cr, diag_label);
    }
  }
#undef PX
#undef PY
}
#endif

static int ends_with(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && strcmp(s + a - b, suf) == 0;
}

int ws_scatter_write(const char *path, const ws_scatter_spec *spec,
                     const ws_scatter_series *series, size_t nseries, ws_diag *d) {
  int png = ends_with(path, ".png"), svg = ends_with(path, ".svg");
  if (!png && !svg)
    return ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "chart: expected a .png or .svg file name"),
           WS_EUNSUP;
#ifndef WS_HAVE_CAIRO
  (void)spec, (void)series, (void)nseries;
  ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "charts need cairo; this build has none");
  return WS_EUNSUP;
#else
  double W = spec->width > 0 ? spec->width : 900, H = spec->height > 0 ? spec->height : 700;
  cairo_surface_t *sf = png ? cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)W, (int)H)
                            : cairo_svg_surface_create(path, W, H);
  if (cairo_surface_status(sf) != CAIRO_STATUS_SUCCESS) {
    ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "cannot write: %s",
                cairo_status_to_string(cairo_surface_status(sf)));
    cairo_surface_destroy(sf);
    return WS_EIO;
  }
  cairo_t *cr = cairo_create(sf);
  draw(cr, W, H, spec, series, nseries);
  cairo_destroy(cr);
  cairo_status_t cs;
  if (png) cs = cairo_surface_write_to_png(sf, path);
  else {
    cairo_surface_finish(sf);
    cs = cairo_surface_status(sf);
  }
  cairo_surface_destroy(sf);
  if (cs != CAIRO_STATUS_SUCCESS) {
    ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "cannot write: %s", cairo_status_to_string(cs));
    return WS_EIO;
  }
  return WS_OK;
#endif
}
