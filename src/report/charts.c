/*
 * charts.c — the charts of warpsight/report.h, drawn with cairo.
 *
 * Each chart is one draw function over a `canvas` (a cairo context plus a
 * plot rectangle and data ranges).  It runs twice: on an image surface for
 * the PNG and on an SVG surface.  cairo 1.16 writes SVG text as glyph
 * outlines, so while drawing the SVG every label is also recorded and, once
 * cairo has finished the file, inserted as transparent <text> elements (and
 * the chart's title as <title>): the SVG keeps its words.
 *
 * Layout: 900 x 640 px, title 18 px, axis labels 14 px, ticks and
 * annotations 12-13 px (docs/charts.md).
 */
#include "warpsight/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/transit.h"
#include "report/escape.h"
#include "util/strbuf.h"
#include "util/vec.h"

#ifdef WS_HAVE_CAIRO
#include <cairo-svg.h>
#include <cairo.h>
#endif

int ws_report_chart_for_result(const char *path_without_ext, const ws_model_result *r,
                        ws_diag *d) {
  if (!r || !r->model) return WS_EUNSUP;
  if (strcmp(r->model, "gpuperf") == 0)
    return ws_report_chart_benefit(path_without_ext, r, d);
  if (strcmp(r->model, "transit") == 0)
    return ws_report_chart_transit(path_without_ext, r, d);
  if (strcmp(r->model, "roofline") == 0)
    return ws_report_chart_roofline(path_without_ext, r, d);
  return WS_EUNSUP;
}

/* Fetch terms a chart needs; WS_EMISSING naming the first absent one. */
static int need_terms(const ws_model_result *r, const char *chart,
                      const ws_term_id *ids, double *vals, size_t n,
                      ws_diag *d) {
  if (!r)
    return ws_diag_error(d, "%s chart: no result given", chart), WS_EINVAL;
  for (size_t i = 0; i < n; i++) {
    vals[i] = ws_model_term_value(r, ids[i]);
    if (!isfinite(vals[i])) {
      ws_diag_error(d, "%s chart: the %s result has no finite term '%s'",
                    chart, r->model ? r->model : "?", ws_model_term_info(ids[i])->name);
      return WS_EMISSING;
    }
  }
  return WS_OK;
}

#ifndef WS_HAVE_CAIRO

int ws_report_chart_available(void) { return 0; }

void ws_report_chart_shutdown(void) {}

static int no_cairo(ws_diag *d) {
  ws_diag_error(d, "charts need cairo: this warpsight was built without it "
                   "(install libcairo2-dev and rebuild)");
  return WS_EUNSUP;
}

int ws_report_chart_benefit(const char *p, const ws_model_result *r, ws_diag *d) {
  (void)p, (void)r, (void)need_terms;
  return no_cairo(d);
}
int ws_report_chart_transit(const char *p, const ws_model_result *r, ws_diag *d) {
  (void)p, (void)r;
  return no_cairo(d);
}
int ws_report_chart_roofline(const char *p, const ws_model_result *r, ws_diag *d) {
  (void)p, (void)r;
  return no_cairo(d);
}
int ws_report_chart_scatter(const char *p, const ws_report_chart_scatter_spec *spec,
                     const ws_report_chart_series *series, size_t n, ws_diag *d) {
  (void)p, (void)spec, (void)series, (void)n;
  return no_cairo(d);
}
int ws_report_chart_sweep(const char *p, const ws_sweep_table *t, ws_diag *d) {
  (void)p, (void)t;
  return no_cairo(d);
}

#else /* WS_HAVE_CAIRO */

int ws_report_chart_available(void) { return 1; }

void ws_report_chart_shutdown(void) { cairo_debug_reset_static_data(); }

enum { W = 900, H = 640 };
enum { ML = 96, MR = 40, MT = 64, MB = 78 }; /* margins: left right top bottom */

typedef struct chart_label {
  double x, y;    /* device position of the anchor */
  double size;    /* font size, px */
  double angle;   /* rotation, degrees (SVG sense) */
  const char *anchor; /* "start", "middle", "end" */
  char *text;     /* owned */
} chart_label;

typedef struct canvas {
  cairo_t *cr;
  double px0, px1, py0, py1; /* plot rectangle in device px (py0 top) */
  double x0, x1, y0, y1;     /* data range */
  int logx, logy;            /* logarithmic axes */
  int record;                /* record labels (SVG pass) */
  chart_label *labels;             /* recorded labels (owned) */
  size_t nlabels, caplabels;
  int oom;                   /* recording failed */
  char title[256];           /* the chart's title */
  char desc[512];            /* one-line description for <desc> */
  double boxes[48][4];       /* horizontal labels placed inside the plot: x, y, w, h */
  size_t nboxes;             /* boxes in use (each pass starts from 0) */
} canvas;

/* 1 if the box (x, y, w, h) meets one already placed. */
static int box_overlaps(const canvas *c, double x, double y, double w, double h) {
  for (size_t i = 0; i < c->nboxes; i++) {
    const double *b = c->boxes[i];
    if (x < b[0] + b[2] && b[0] < x + w && y < b[1] + b[3] && b[1] < y + h) return 1;
  }
  return 0;
}

static double tx(const canvas *c, double x) {
  double t = c->logx ? (log10(x) - log10(c->x0)) / (log10(c->x1) - log10(c->x0))
                     : (x - c->x0) / (c->x1 - c->x0);
  return c->px0 + t * (c->px1 - c->px0);
}

static double ty(const canvas *c, double y) {
  double t = c->logy ? (log10(y) - log10(c->y0)) / (log10(c->y1) - log10(c->y0))
                     : (y - c->y0) / (c->y1 - c->y0);
  return c->py1 - t * (c->py1 - c->py0);
}

static void record(canvas *c, double x, double y, double size, double angle,
                   const char *anchor, const char *s) {
  if (!c->record || c->oom) return;
  char *t = ws_strdup(s);
  if (!t || WS_VEC_PUSH(c->labels, c->nlabels, c->caplabels, ((chart_label){x, y, size, angle, anchor, t}))) {
    free(t);
    c->oom = 1;
  }
}

/* Text at device (x, y); ha: 0 left, 0.5 centre, 1 right; va likewise
 * 0 top, 0.5 middle, 1 baseline.  angle in degrees, counter-clockwise. */
static void text(canvas *c, double x, double y, const char *s, double size,
                 double ha, double va, double angle, int bold) {
  cairo_t *cr = c->cr;
  cairo_save(cr);
  cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                         bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size);
  cairo_text_extents_t e;
  cairo_text_extents(cr, s, &e);
  double dx = -e.x_advance * ha;
  double dy = va >= 1 ? 0 : size * 0.75 * (1 - va); /* baseline from cap height */
  /* A horizontal label inside the plot (a point's or an arrow's; ticks,
   * axis names and legends lie outside) moves down, or up near the bottom,
   * by a line until it meets no label placed before it, so that labels of
   * clustered points do not overlap. */
  if (angle == 0 && x >= c->px0 && x <= c->px1 && y >= c->py0 && y <= c->py1 &&
      c->nboxes < sizeof c->boxes / sizeof c->boxes[0]) {
    double bx0 = x + dx, by0 = y + dy - size * 0.8, bw = e.x_advance, bh = size * 1.05;
    double step = y + dy + size > c->py1 ? -(bh + 1) : bh + 1;
    for (int tries = 0; tries < 12 && box_overlaps(c, bx0, by0, bw, bh); tries++) {
      y += step;
      by0 += step;
    }
    double *b = c->boxes[c->nboxes++];
    b[0] = bx0, b[1] = by0, b[2] = bw, b[3] = bh;
  }
  cairo_translate(cr, x, y);
  cairo_rotate(cr, -angle * M_PI / 180.0);
  cairo_move_to(cr, dx, dy);
  cairo_show_text(cr, s);
  cairo_restore(cr);
  /* the recorded anchor sits on the baseline */
  double bx = x + cos(angle * M_PI / 180) * 0 + sin(angle * M_PI / 180) * dy;
  double by = y + cos(angle * M_PI / 180) * dy;
  const char *anchor = ha < 0.25 ? "start" : ha > 0.75 ? "end" : "middle";
  record(c, bx, by, size, -angle, anchor, s);
}

static double text_width(canvas *c, const char *s, double size, int bold) {
  cairo_save(c->cr);
  cairo_select_font_face(c->cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                         bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(c->cr, size);
  cairo_text_extents_t e;
  cairo_text_extents(c->cr, s, &e);
  cairo_restore(c->cr);
  return e.x_advance;
}

static void color(canvas *c, double r, double g, double b) {
  cairo_set_source_rgb(c->cr, r, g, b);
}

static void dashed(canvas *c, int on) {
  static const double dash[] = {6, 4};
  cairo_set_dash(c->cr, dash, on ? 2 : 0, 0);
}

static void line(canvas *c, double x0, double y0, double x1, double y1) {
  cairo_move_to(c->cr, tx(c, x0), ty(c, y0));
  cairo_line_to(c->cr, tx(c, x1), ty(c, y1));
  cairo_stroke(c->cr);
}

static void dot(canvas *c, double x, double y, double radius) {
  cairo_arc(c->cr, tx(c, x), ty(c, y), radius, 0, 2 * M_PI);
  cairo_fill(c->cr);
}

/* An arrow in data coordinates with its head at (x1, y1). */
static void arrow(canvas *c, double x0, double y0, double x1, double y1) {
  double ax = tx(c, x0), ay = ty(c, y0), bx = tx(c, x1), by = ty(c, y1);
  double len = hypot(bx - ax, by - ay);
  if (len < 1) return;
  double ux = (bx - ax) / len, uy = (by - ay) / len, hl = len < 20 ? len / 2 : 10;
  cairo_move_to(c->cr, ax, ay);
  cairo_line_to(c->cr, bx - ux * hl * 0.8, by - uy * hl * 0.8);
  cairo_stroke(c->cr);
  cairo_move_to(c->cr, bx, by);
  cairo_line_to(c->cr, bx - ux * hl - uy * hl * 0.45, by - uy * hl + ux * hl * 0.45);
  cairo_line_to(c->cr, bx - ux * hl + uy * hl * 0.45, by - uy * hl - ux * hl * 0.45);
  cairo_close_path(c->cr);
  cairo_fill(c->cr);
}

/* %g with at most 4 significant digits, and k/M/G suffixes for big values. */
static void num(char *out, size_t n, double v) {
  double a = fabs(v);
  if (a >= 1e9)
    snprintf(out, n, "%.3gG", v / 1e9);
  else if (a >= 1e6)
    snprintf(out, n, "%.3gM", v / 1e6);
  else if (a >= 1e4)
    snprintf(out, n, "%.3gk", v / 1e3);
  else
    snprintf(out, n, "%.4g", v);
}

static double nice_step(double range, int target) {
  double raw = range / target;
  double p = pow(10, floor(log10(raw)));
  double f = raw / p;
  return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * p;
}

/* Frame, grid, ticks and axis labels. */
static void axes(canvas *c, const char *xlabel, const char *ylabel) {
  cairo_t *cr = c->cr;
  char buf[32];
  cairo_set_line_width(cr, 1);
  /* x ticks */
  if (c->logx) {
    for (double e = ceil(log10(c->x0) - 1e-9); e <= log10(c->x1) + 1e-9; e++) {
      double v = pow(10, e), X = tx(c, v);
      color(c, 0.88, 0.88, 0.88);
      cairo_move_to(cr, X, c->py0);
      cairo_line_to(cr, X, c->py1);
      cairo_stroke(cr);
      color(c, 0, 0, 0);
      num(buf, sizeof buf, v);
      text(c, X, c->py1 + 8, buf, 12, 0.5, 0, 0, 0);
    }
  } else {
    double s = nice_step(c->x1 - c->x0, 6);
    for (double v = ceil(c->x0 / s) * s; v <= c->x1 + s * 1e-9; v += s) {
      double X = tx(c, v);
      color(c, 0.88, 0.88, 0.88);
      cairo_move_to(cr, X, c->py0);
      cairo_line_to(cr, X, c->py1);
      cairo_stroke(cr);
      color(c, 0, 0, 0);
      num(buf, sizeof buf, fabs(v) < s * 1e-9 ? 0 : v);
      text(c, X, c->py1 + 8, buf, 12, 0.5, 0, 0, 0);
    }
  }
  /* y ticks */
  if (c->logy) {
    for (double e = ceil(log10(c->y0) - 1e-9); e <= log10(c->y1) + 1e-9; e++) {
      double v = pow(10, e), Y = ty(c, v);
      color(c, 0.88, 0.88, 0.88);
      cairo_move_to(cr, c->px0, Y);
      cairo_line_to(cr, c->px1, Y);
      cairo_stroke(cr);
      color(c, 0, 0, 0);
      num(buf, sizeof buf, v);
      text(c, c->px0 - 8, Y, buf, 12, 1, 0.5, 0, 0);
    }
  } else {
    double s = nice_step(c->y1 - c->y0, 6);
    for (double v = ceil(c->y0 / s) * s; v <= c->y1 + s * 1e-9; v += s) {
      double Y = ty(c, v);
      color(c, 0.88, 0.88, 0.88);
      cairo_move_to(cr, c->px0, Y);
      cairo_line_to(cr, c->px1, Y);
      cairo_stroke(cr);
      color(c, 0, 0, 0);
      num(buf, sizeof buf, fabs(v) < s * 1e-9 ? 0 : v);
      text(c, c->px0 - 8, Y, buf, 12, 1, 0.5, 0, 0);
    }
  }
  color(c, 0, 0, 0);
  cairo_set_line_width(cr, 1.5);
  cairo_rectangle(cr, c->px0, c->py0, c->px1 - c->px0, c->py1 - c->py0);
  cairo_stroke(cr);
  text(c, (c->px0 + c->px1) / 2, c->py1 + 34, xlabel, 14, 0.5, 0, 0, 0);
  text(c, c->px0 - 70, (c->py0 + c->py1) / 2, ylabel, 14, 0.5, 0, 90, 0);
  text(c, (c->px0 + c->px1) / 2, 22, c->title, 18, 0.5, 0, 0, 1);
}

static void clip_plot(canvas *c) {
  cairo_rectangle(c->cr, c->px0, c->py0, c->px1 - c->px0, c->py1 - c->py0);
  cairo_clip(c->cr);
}

static void canvas_reset(canvas *c) {
  c->px0 = ML;
  c->px1 = W - MR;
  c->py0 = MT;
  c->py1 = H - MB;
}

/* Writing -----------------------------------------------------------------*/

typedef void (*draw_fn)(canvas *c, const void *data);

/* Insert <title>, <desc> and the transparent text layer into cairo's SVG. */
static int svg_add_text(const char *path, char *svg, const canvas *c, ws_diag *d) {
  char *open = strstr(svg, "<svg");
  char *open_end = open ? strchr(open, '>') : NULL;
  char *close = strstr(svg, "</svg>");
  if (!open_end || !close || close < open_end) {
    free(svg);
    ws_diag_error(d, "%s: cairo wrote no <svg> element", path);
    return WS_EIO;
  }
  /* head: after <svg ...>; layer: before </svg> */
  ws_strbuf head = WS_STRBUF_INIT, layer = WS_STRBUF_INIT;
  ws_sb_puts(&head, "\n<title>");
  ws_report_xml_escape(&head, c->title);
  ws_sb_puts(&head, "</title>\n<desc>");
  ws_report_xml_escape(&head, c->desc);
  ws_sb_puts(&head, "</desc>\n");
  ws_sb_puts(&layer, "<g id=\"warpsight-text\" fill-opacity=\"0\" "
                     "font-family=\"DejaVu Sans, sans-serif\">\n");
  for (size_t i = 0; i < c->nlabels; i++) {
    const chart_label *l = &c->labels[i];
    ws_sb_printf(&layer, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" text-anchor=\"%s\"",
                 l->x, l->y, l->size, l->anchor);
    if (l->angle != 0)
      ws_sb_printf(&layer, " transform=\"rotate(%.0f %.1f %.1f)\"", l->angle, l->x, l->y);
    ws_sb_puts(&layer, ">");
    ws_report_xml_escape(&layer, l->text);
    ws_sb_puts(&layer, "</text>\n");
  }
  ws_sb_puts(&layer, "</g>\n");
  ws_outfile o;
  int st = WS_OK;
  if (head.oom || layer.oom) {
    st = WS_ENOMEM; /* named by the entry point (ws_diag_oom) */
  } else if (ws_outfile_open(&o, path, d)) {
    st = WS_EIO;
  } else {
    FILE *f = o.f;
    fwrite(svg, 1, (size_t)(open_end + 1 - svg), f);
    fputs(ws_sb_str(&head), f);
    fwrite(open_end + 1, 1, (size_t)(close - open_end - 1), f);
    fputs(ws_sb_str(&layer), f);
    fputs(close, f);
    st = ws_outfile_commit(&o, d);
  }
  ws_sb_free(&head);
  ws_sb_free(&layer);
  free(svg);
  return st;
}

/* cairo stream writers: into an output file, into a string buffer */
static cairo_status_t to_file(void *f, const unsigned char *data, unsigned int len) {
  return fwrite(data, 1, len, f) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static cairo_status_t to_sb(void *sb, const unsigned char *data, unsigned int len) {
  ws_sb_putn(sb, (const char *)data, len);
  return CAIRO_STATUS_SUCCESS;
}

static void free_labels(canvas *c) {
  for (size_t i = 0; i < c->nlabels; i++) free(c->labels[i].text);
  free(c->labels);
  c->labels = NULL;
  c->nlabels = c->caplabels = 0;
}

static int render_files(const char *base, draw_fn draw, const void *data, canvas *proto,
                        ws_diag *d);

/* BASE.png and BASE.svg, both or neither (staged in BASE's folder). */
static int render(const char *base, draw_fn draw, const void *data,
                  canvas *proto, ws_diag *d) {
  if (!base || !*base) return ws_diag_error(d, "chart: no output path given");
  const char *slash = strrchr(base, '/');
  ws_strbuf dir = WS_STRBUF_INIT, staged = WS_STRBUF_INIT;
  if (slash) ws_sb_putn(&dir, base, slash == base ? 1 : (size_t)(slash - base));
  else ws_sb_puts(&dir, ".");
  ws_outdir od;
  size_t before = d ? d->count : 0;
  int st = dir.oom ? WS_ENOMEM : ws_outdir_begin(&od, ws_sb_str(&dir), d);
  ws_sb_free(&dir);
  if (st) return st;
  ws_sb_printf(&staged, "%s/%s", ws_outdir_path(&od), slash ? slash + 1 : base);
  st = staged.oom ? WS_ENOMEM : render_files(ws_sb_str(&staged), draw, data, proto, d);
  ws_sb_free(&staged);
  ws_outdir_names(&od, d, before);
  if (st) {
    ws_outdir_discard(&od);
    return st;
  }
  return ws_outdir_commit(&od, d);
}

static int render_files(const char *base, draw_fn draw, const void *data, canvas *proto,
                        ws_diag *d) {
  size_t n = strlen(base);
  char *path = malloc(n + 5);
  if (!path) return WS_ENOMEM;
  int st = WS_OK;

  /* PNG */
  memcpy(path, base, n);
  memcpy(path + n, ".png", 5);
  cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create(s);
  canvas c = *proto;
  c.cr = cr;
  c.record = 0;
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  draw(&c, data);
  ws_outfile o;
  st = ws_outfile_open(&o, path, d);
  cairo_status_t cs = st ? CAIRO_STATUS_SUCCESS : cairo_surface_write_to_png_stream(s, to_file, o.f);
  cairo_destroy(cr);
  cairo_surface_destroy(s);
  if (!st && cs != CAIRO_STATUS_SUCCESS) {
    ws_diag_error(d, "%s: cannot write the PNG: %s", path, cairo_status_to_string(cs));
    ws_outfile_discard(&o);
    st = WS_EIO;
  } else if (!st) {
    st = ws_outfile_commit(&o, d);
  }
  if (st) {
    free(path);
    return st;
  }

  /* SVG */
  memcpy(path + n, ".svg", 5);
  ws_strbuf svg = WS_STRBUF_INIT;
  s = cairo_svg_surface_create_for_stream(to_sb, &svg, W, H);
  if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
    ws_diag_error(d, "%s: cannot write the SVG: %s", path,
                  cairo_status_to_string(cairo_surface_status(s)));
    cairo_surface_destroy(s);
    ws_sb_free(&svg);
    free(path);
    return WS_EIO;
  }
  cr = cairo_create(s);
  c = *proto;
  c.cr = cr;
  c.record = 1;
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  draw(&c, data);
  cairo_destroy(cr);
  cairo_surface_finish(s);
  cs = cairo_surface_status(s);
  cairo_surface_destroy(s);
  if (cs != CAIRO_STATUS_SUCCESS) {
    ws_diag_error(d, "%s: cannot write the SVG: %s", path,
                  cairo_status_to_string(cs));
    st = WS_EIO;
  } else if (c.oom) {
    ws_diag_error(d, "%s: out of memory recording labels", path);
    st = WS_ENOMEM;
  } else {
    char *text = ws_sb_take(&svg);
    st = text ? svg_add_text(path, text, &c, d) : ws_diag_error(d, "%s: out of memory", path);
  }
  ws_sb_free(&svg);
  free_labels(&c);
  free(path);
  return st;
}

/* (a) GPUPerf benefit chart ----------------------------------------------*/

enum { B_TCOMP, B_TMEM, B_TOVL, B_TFP, B_TMMIN, B_ITILP, B_SERIAL, B_FP,
       B_MEMLP, B_N };
static const ws_term_id benefit_terms[B_N] = {
    WS_TERM_GPUPERF_T_COMP, WS_TERM_GPUPERF_T_MEM, WS_TERM_GPUPERF_T_OVERLAP,
    WS_TERM_GPUPERF_T_FP, WS_TERM_GPUPERF_T_MEM_MIN, WS_TERM_GPUPERF_B_ITILP,
    WS_TERM_GPUPERF_B_SERIAL, WS_TERM_GPUPERF_B_FP, WS_TERM_GPUPERF_B_MEMLP};

static void draw_benefit(canvas *c, const void *data) {
  const double *v = data;
  cairo_t *cr = c->cr;
  double tcomp = v[B_TCOMP], tmem = v[B_TMEM];
  double tmem1 = tmem - v[B_TOVL];
  if (tmem1 < 0) tmem1 = 0;
  char b[160], n1[32], n2[32];

  axes(c, "memory cost T_mem' = T_mem - T_overlap (cycles)",
       "computation cost T_comp (cycles)");
  cairo_save(cr);
  clip_plot(c);
  /* Zones either side of y = x. */
  cairo_move_to(cr, tx(c, 0), ty(c, 0));
  cairo_line_to(cr, tx(c, c->x1), ty(c, c->x1));
  cairo_line_to(cr, tx(c, 0), ty(c, c->x1));
  cairo_close_path(cr);
  cairo_set_source_rgba(cr, 0.85, 0.1, 0.1, 0.06);
  cairo_fill(cr);
  cairo_move_to(cr, tx(c, 0), ty(c, 0));
  cairo_line_to(cr, tx(c, c->x1), ty(c, c->x1));
  cairo_line_to(cr, tx(c, c->x1), ty(c, 0));
  cairo_close_path(cr);
  cairo_set_source_rgba(cr, 0.1, 0.3, 0.9, 0.06);
  cairo_fill(cr);
  color(c, 0.4, 0.4, 0.4);
  cairo_set_line_width(cr, 1.2);
  line(c, 0, 0, c->x1, c->y1);
  cairo_restore(cr);
  /* Zone names along the diagonal, one each side, drawn first so that the
   * kernel's marks go over them. */
  double zx = tx(c, c->x1 * 0.3), zy = ty(c, c->y1 * 0.3);
  color(c, 0.6, 0.25, 0.25);
  text(c, zx - 9, zy - 9, "compute bound", 14, 0.5, 1, 45, 1);
  color(c, 0.2, 0.3, 0.65);
  text(c, zx + 9, zy + 9, "memory bound", 14, 0.5, 0, 45, 1);
  color(c, 0.3, 0.3, 0.3);
  text(c, tx(c, c->x1 * 0.9) - 6, ty(c, c->x1 * 0.9) - 6, "y = x", 12, 0.5,
       1, 45, 0);

  /* Ideal costs: dashed lines and their meeting point. */
  cairo_set_line_width(cr, 1.2);
  color(c, 0.1, 0.55, 0.2);
  dashed(c, 1);
  line(c, 0, v[B_TFP], c->x1, v[B_TFP]);
  line(c, v[B_TMMIN], 0, v[B_TMMIN], c->y1);
  dashed(c, 0);
  num(n1, sizeof n1, v[B_TFP]);
  snprintf(b, sizeof b, "T_fp = %s", n1);
  text(c, c->px1 - 6, ty(c, v[B_TFP]) - 4, b, 12, 1, 1, 0, 0);
  num(n1, sizeof n1, v[B_TMMIN]);
  snprintf(b, sizeof b, "T_mem_min = %s", n1);
  text(c, tx(c, v[B_TMMIN]) + 4, c->py0 + 6, b, 12, 0, 0, 0, 0);
  dot(c, v[B_TMMIN], v[B_TFP], 5);

  /* A = (T_mem, T_comp), and A' shifted left by T_overlap. */
  double ax = tx(c, tmem), a1x = tx(c, tmem1), ay = ty(c, tcomp);
  color(c, 0.35, 0.35, 0.35);
  dot(c, tmem, tcomp, 5);
  num(n1, sizeof n1, tmem);
  num(n2, sizeof n2, tcomp);
  snprintf(b, sizeof b, "A (%s, %s)", n1, n2);
  double w = text_width(c, b, 13, 0);
  if (ax + 8 + w < c->px1)
    text(c, ax + 8, ay - 8, b, 13, 0, 1, 0, 0);
  else /* below, against the right edge: above is T_overlap's place */
    text(c, c->px1 - 4, ay + 8, b, 13, 1, 0, 0, 0);
  if (v[B_TOVL] > 0) {
    dashed(c, 1);
    cairo_set_line_width(cr, 1.2);
    arrow(c, tmem, tcomp, tmem1, tcomp);
    dashed(c, 0);
    num(n1, sizeof n1, v[B_TOVL]);
    snprintf(b, sizeof b, "T_overlap = %s", n1);
    if (ax - a1x > text_width(c, b, 12, 0) + 16) /* else: the legend has it */
      text(c, (ax + a1x) / 2, ay - 6, b, 12, 0.5, 1, 0, 0);
  }
  color(c, 0, 0, 0);
  dot(c, tmem1, tcomp, 6);
  snprintf(b, sizeof b, "A'");
  double a1y = ax - a1x < 60 ? ay + 8 : ay - 8, a1va = ax - a1x < 60 ? 0 : 1;
  if (a1x - 12 - text_width(c, b, 13, 1) > c->px0)
    text(c, a1x - 10, a1y, b, 13, 1, a1va, 0, 1);
  else
    text(c, a1x + 10, a1y, b, 13, 0, a1va, 0, 1);

  /* Benefits: the computation ones stack downwards from A' (B_serial,
   * B_itilp, B_fp: T_comp - all three = T_fp, (22)); B_memlp points left
   * towards T_mem_min (23).  Zero benefits are only in the legend. */
  static const struct { int idx; const char *name; double r, g, b; } down[] = {
      {B_SERIAL, "B_serial", 0.75, 0.35, 0.0},
      {B_ITILP, "B_itilp", 0.55, 0.0, 0.6},
      {B_FP, "B_fp", 0.8, 0.0, 0.2}};
  double y = tcomp;
  cairo_set_line_width(cr, 2.5);
  for (size_t i = 0; i < 3; i++) {
    double bv = v[down[i].idx];
    if (!(bv > 0)) continue;
    num(n1, sizeof n1, bv);
    snprintf(b, sizeof b, "%s = %s", down[i].name, n1);
    color(c, down[i].r, down[i].g, down[i].b);
    arrow(c, tmem1, y, tmem1, y - bv);
    text(c, a1x + 10, (ty(c, y) + ty(c, y - bv)) / 2, b, 13, 0, 0.5, 0, 1);
    y -= bv;
  }
  if (v[B_MEMLP] > 0) {
    num(n1, sizeof n1, v[B_MEMLP]);
    snprintf(b, sizeof b, "B_memlp = %s", n1);
    color(c, 0.0, 0.35, 0.75);
    arrow(c, tmem1, tcomp, tmem1 - v[B_MEMLP], tcomp);
    text(c, (a1x + tx(c, tmem1 - v[B_MEMLP])) / 2, ay + 10, b, 13, 0.5, 0, 0,
         1);
  }

  /* Legend right of the square plot: the costs and each benefit's share. */
  double lx = c->px1 + 28, ly = c->py0 + 4;
  double texec = tmem1 + tcomp;
  static const struct { int idx; const char *name; } costs[] = {
      {B_TCOMP, "T_comp"}, {B_TMEM, "T_mem"}, {B_TOVL, "T_overlap"},
      {B_TFP, "T_fp"}, {B_TMMIN, "T_mem_min"}};
  color(c, 0, 0, 0);
  text(c, lx, ly, "costs (cycles)", 13, 0, 0, 0, 1);
  ly += 22;
  num(n1, sizeof n1, texec);
  snprintf(b, sizeof b, "T_exec = %s (A')", n1);
  text(c, lx, ly, b, 12, 0, 0, 0, 0);
  for (size_t i = 0; i < sizeof costs / sizeof costs[0]; i++) {
    ly += 18;
    num(n1, sizeof n1, v[costs[i].idx]);
    snprintf(b, sizeof b, "%s = %s", costs[i].name, n1);
    text(c, lx, ly, b, 12, 0, 0, 0, 0);
  }
  ly += 18;
  color(c, 0.1, 0.55, 0.2);
  cairo_arc(cr, lx + 5, ly + 6, 5, 0, 2 * M_PI);
  cairo_fill(cr);
  text(c, lx + 16, ly, "ideal (T_mem_min, T_fp)", 12, 0, 0, 0, 0);
  color(c, 0, 0, 0);
  ly += 32;
  text(c, lx, ly, "potential benefits", 13, 0, 0, 0, 1);
  ly += 16;
  text(c, lx, ly, "(share of T_exec)", 12, 0, 0, 0, 0);
  static const struct { int idx; const char *name; } bens[] = {
      {B_ITILP, "B_itilp"}, {B_SERIAL, "B_serial"}, {B_FP, "B_fp"},
      {B_MEMLP, "B_memlp"}};
  for (size_t i = 0; i < sizeof bens / sizeof bens[0]; i++) {
    ly += 18;
    num(n1, sizeof n1, v[bens[i].idx]);
    if (v[bens[i].idx] < 0) /* (22) with the current ITILP: no saving */
      snprintf(b, sizeof b, "%s = %s (negative: no saving)", bens[i].name, n1);
    else
      snprintf(b, sizeof b, "%s = %s (%.0f %%)", bens[i].name, n1,
               texec > 0 ? 100 * v[bens[i].idx] / texec : 0.0);
    text(c, lx, ly, b, 12, 0, 0, 0, 0);
  }
}

int ws_report_chart_benefit(const char *path, const ws_model_result *r, ws_diag *d) {
  double v[B_N];
  int st = need_terms(r, "benefit", benefit_terms, v, B_N, d);
  if (st != WS_OK) return st;
  canvas c = {0};
  canvas_reset(&c);
  /* Square plot so that y = x is the diagonal. */
  double side = c.py1 - c.py0;
  c.px1 = c.px0 + side;
  double tmem1 = v[B_TMEM] - v[B_TOVL];
  double m = v[B_TCOMP];
  if (v[B_TMEM] > m) m = v[B_TMEM];
  if (tmem1 > m) m = tmem1;
  if (!(m > 0)) m = 1;
  c.x0 = c.y0 = 0;
  c.x1 = c.y1 = m * 1.15;
  snprintf(c.title, sizeof c.title, "GPUPerf benefit chart: %s", /* the model's bound */
           r->bound == WS_BOUND_GPUPERF_MEMORY ? "memory bound" : "compute bound");
  snprintf(c.desc, sizeof c.desc,
           "Sim et al. PPoPP'12 Figure 4: A = (T_mem, T_comp), A' = (T_mem', "
           "T_comp); benefits B_serial, B_itilp, B_fp, B_memlp in cycles.");
  return render(path, draw_benefit, v, &c, d);
}

/* (b) Transit figure -----------------------------------------------------*/

enum { T_N, T_Z, T_KD, T_R, T_M, T_P, T_K, T_MS, T_NN };
static const ws_term_id transit_terms[T_NN] = {
    WS_TERM_TRANSIT_N, WS_TERM_TRANSIT_Z_OPS_PER_BYTE,
    WS_TERM_TRANSIT_DELTA_THREADS, WS_TERM_TRANSIT_DELTA_GBS,
    WS_TERM_TRANSIT_PI_THREADS, WS_TERM_TRANSIT_PI_VALUE, WS_TERM_TRANSIT_K_EQ,
    WS_TERM_TRANSIT_MS_THROUGHPUT};

typedef struct transit_data {
  double v[T_NN];       /* the terms, in transit_terms order */
  ws_transit_params tp; /* the curves */
  const char *bound;    /* the case label (borrowed) */
} transit_data;

static void draw_transit(canvas *c, const void *data) {
  const transit_data *t = data;
  const ws_transit_params *tp = &t->tp;
  cairo_t *cr = c->cr;
  char b[160], n1[32], n2[32];
  axes(c, "k: threads in the memory system (per SM)",
       "memory-system throughput (GB/s per SM)");
  /* Top axis: x = n - k. */
  color(c, 0.3, 0.3, 0.3);
  text(c, (c->px0 + c->px1) / 2, c->py0 - 20,
       "x = n - k: threads in the computation system", 12, 0.5, 1, 0, 0);

  cairo_save(cr);
  clip_plot(c);
  /* f(k) */
  color(c, 0.1, 0.3, 0.85);
  cairo_set_line_width(cr, 3);
  cairo_move_to(cr, tx(c, 0), ty(c, 0));
  double kd = tp->k_delta;
  cairo_line_to(cr, tx(c, kd < c->x1 ? kd : c->x1),
                ty(c, ws_model_transit_f(tp, kd < c->x1 ? kd : c->x1)));
  cairo_line_to(cr, tx(c, c->x1), ty(c, ws_model_transit_f(tp, c->x1)));
  cairo_stroke(cr);
  /* g(n - k), reversed; 0 for k > n. */
  color(c, 0.85, 0.35, 0.0);
  double n = tp->n, bk = n - tp->m; /* the corner of g in k */
  cairo_move_to(cr, tx(c, 0), ty(c, ws_model_transit_g(tp, n)));
  if (bk > 0) cairo_line_to(cr, tx(c, bk), ty(c, ws_model_transit_g(tp, tp->m)));
  cairo_line_to(cr, tx(c, n), ty(c, 0));
  cairo_stroke(cr);
  cairo_restore(cr);

  /* n */
  color(c, 0.4, 0.4, 0.4);
  cairo_set_line_width(cr, 1);
  dashed(c, 1);
  line(c, n, 0, n, c->y1);
  dashed(c, 0);
  num(n1, sizeof n1, n);
  snprintf(b, sizeof b, "n = %s", n1);
  text(c, tx(c, n) - 4, c->py0 + 48, b, 12, 1, 0, 0, 0);

  /* Top ticks: x = n - k. */
  double st = nice_step(n, 5);
  for (double xv = 0; xv <= n + st * 1e-9; xv += st) {
    double X = tx(c, n - xv);
    cairo_move_to(cr, X, c->py0);
    cairo_line_to(cr, X, c->py0 + 6);
    cairo_stroke(cr);
    num(n1, sizeof n1, xv);
    text(c, X, c->py0 - 4, n1, 11, 0.5, 1, 0, 0);
  }

  /* Curve names: f above its slope, g beside its slope. */
  double kf = 0.5 * (kd < c->x1 ? kd : c->x1);
  color(c, 0.1, 0.3, 0.85);
  text(c, tx(c, kf) - 10, ty(c, ws_model_transit_f(tp, kf)) - 10,
       "f(k): memory supply", 13, 1, 1, 0, 1);
  double kg = bk > 0 ? (bk + n) / 2 : n / 2;
  double gy = ws_model_transit_g(tp, n - kg);
  color(c, 0.85, 0.35, 0.0);
  const char *gname = "g(x): computation demand";
  if (gy <= c->y1 && tx(c, kg) + 12 + text_width(c, gname, 13, 1) < c->px1)
    text(c, tx(c, kg) + 12, ty(c, gy), gname, 13, 0, 0.5, 0, 1);
  else if (gy <= c->y1)
    text(c, tx(c, kg) - 12, ty(c, gy), gname, 13, 1, 0.5, 0, 1);
  else
    text(c, c->px0 + 10, c->py0 + 66, "g(x): computation demand (off scale)",
         13, 0, 0, 0, 1);

  /* delta and pi */
  color(c, 0.1, 0.3, 0.85);
  if (kd <= c->x1) {
    dot(c, kd, tp->r, 5);
    num(n1, sizeof n1, kd);
    snprintf(b, sizeof b, "delta (%s, %.4g)", n1, tp->r);
    text(c, tx(c, kd), ty(c, tp->r) + 10, b, 12, 0.5, 0, 0, 0);
  }
  color(c, 0.85, 0.35, 0.0);
  if (bk >= 0 && ws_model_transit_g(tp, tp->m) <= c->y1) {
    dot(c, bk, ws_model_transit_g(tp, tp->m), 5);
    num(n1, sizeof n1, tp->m);
    snprintf(b, sizeof b, "pi (x = M = %s)", n1);
    text(c, tx(c, bk), ty(c, ws_model_transit_g(tp, tp->m)) - 10, b, 12, 0.5, 1, 0, 0);
  }

  /* Equilibrium: the point, a short name placed clear of the curves, and
   * the numbers in the top left corner. */
  double k = t->v[T_K], r = t->v[T_MS];
  color(c, 0, 0, 0);
  cairo_set_line_width(cr, 1);
  dashed(c, 1);
  line(c, k, 0, k, r);
  line(c, 0, r, k, r);
  dashed(c, 0);
  dot(c, k, r, 6);
  /* Thread bound: in the wedge right of the point; computation: below the
   * flat g; memory: above the flat f; capacity: above left (delta and pi
   * sit on the flat line to the right). */
  double va = 0.5, dy = 0, ha = 0, dx = 14;
  if (strncmp(t->bound, "computation", 11) == 0) {
    va = 0;
    dy = 10;
  } else if (strncmp(t->bound, "memory", 6) == 0) {
    va = 1;
    dy = -10;
  } else if (strncmp(t->bound, "capacity", 8) == 0) {
    va = 1;
    dy = -10;
    ha = 1;
    dx = -14;
  }
  text(c, tx(c, k) + dx, ty(c, r) + dy, "equilibrium", 13, ha, va, 0, 1);
  num(n1, sizeof n1, k);
  num(n2, sizeof n2, n - k);
  snprintf(b, sizeof b, "equilibrium: k = %s, x = %s threads", n1, n2);
  text(c, c->px0 + 10, c->py0 + 10, b, 12, 0, 0, 0, 0);
  snprintf(b, sizeof b, "memory %.3g GB/s, computation %.3g Gops/s per SM", r,
           ws_model_transit_cs(tp, n - k));
  text(c, c->px0 + 10, c->py0 + 28, b, 12, 0, 0, 0, 0);
}

int ws_report_chart_transit(const char *path, const ws_model_result *r, ws_diag *d) {
  transit_data t;
  if (!r) return ws_diag_error(d, "transit chart: no result given");
  /* Every term finite, except Z, which is +inf without DRAM traffic. */
  for (int i = 0; i < T_NN; i++) {
    t.v[i] = ws_model_term_value(r, transit_terms[i]);
    if (!isfinite(t.v[i]) && !(i == T_Z && isinf(t.v[i]) && t.v[i] > 0)) {
      ws_diag_error(d, "transit chart: the %s result has no finite term '%s'",
                    r->model ? r->model : "?",
                    ws_model_term_info(transit_terms[i])->name);
      return WS_EMISSING;
    }
  }
  t.bound = r->case_label ? r->case_label : "?";
  t.tp = (ws_transit_params){t.v[T_N], t.v[T_KD], t.v[T_R], t.v[T_M], t.v[T_P],
                             t.v[T_Z]};
  canvas c = {0};
  canvas_reset(&c);
  c.py0 = MT + 22; /* room for the x = n - k axis on top */
  c.x0 = 0;
  c.x1 = t.tp.n > t.tp.k_delta ? t.tp.n : t.tp.k_delta;
  c.x1 *= 1.08;
  double ymax = t.tp.r;
  double gc = ws_model_transit_g(&t.tp, t.tp.m);
  if (gc > ymax) ymax = gc < 3 * t.tp.r ? gc : 3 * t.tp.r;
  if (t.v[T_MS] > ymax) ymax = t.v[T_MS];
  c.y0 = 0;
  c.y1 = ymax * 1.25;
  if (!(c.y1 > 0)) c.y1 = 1;
  const char *label = r->case_label ? r->case_label : "?";
  snprintf(c.title, sizeof c.title, "Transit: %s (Z = %.3g thread insts/byte)",
           label, t.tp.z_ops_per_byte);
  snprintf(c.desc, sizeof c.desc,
           "Li et al. HPDC'15 Figure 6: memory supply f(k) and reversed "
           "computation demand g(n - k), equilibrium at k = %.4g threads, "
           "%.4g GB/s per SM; %s.",
           t.v[T_K], t.v[T_MS], label);
  return render(path, draw_transit, &t, &c, d);
}

/* (c) Roofline ------------------------------------------------------------*/

enum { R_AI, R_PEAK, R_BW, R_RIDGE, R_ATT, R_N };
static const ws_term_id roofline_terms[R_N] = {
    WS_TERM_ROOFLINE_ARITHMETIC_INTENSITY, WS_TERM_ROOFLINE_PEAK_GFLOPS,
    WS_TERM_ROOFLINE_BANDWIDTH_GBS, WS_TERM_ROOFLINE_RIDGE_POINT,
    WS_TERM_ROOFLINE_ATTAINABLE_GFLOPS};

static void draw_roofline(canvas *c, const void *data) {
  const double *v = data;
  cairo_t *cr = c->cr;
  char b[160], n1[32], n2[32];
  axes(c, "arithmetic intensity (FLOP/byte of DRAM traffic)",
       "attainable performance (GFLOP/s)");
  cairo_save(cr);
  clip_plot(c);
  color(c, 0.1, 0.3, 0.85);
  cairo_set_line_width(cr, 3);
  cairo_move_to(cr, tx(c, c->x0), ty(c, c->x0 * v[R_BW]));
  cairo_line_to(cr, tx(c, v[R_RIDGE]), ty(c, v[R_PEAK]));
  cairo_line_to(cr, tx(c, c->x1), ty(c, v[R_PEAK]));
  cairo_stroke(cr);
  cairo_restore(cr);

  num(n1, sizeof n1, v[R_PEAK]);
  snprintf(b, sizeof b, "peak FP32: %s GFLOP/s", n1);
  text(c, c->px1 - 8, ty(c, v[R_PEAK]) - 8, b, 13, 1, 1, 0, 1);
  /* Bandwidth label along the slope, at a quarter of the way to the ridge. */
  double lx = pow(10, log10(c->x0) + 0.35 * (log10(v[R_RIDGE]) - log10(c->x0)));
  double ang = atan2(ty(c, c->x0 * v[R_BW]) - ty(c, v[R_PEAK]),
                     tx(c, v[R_RIDGE]) - tx(c, c->x0)) * 180 / M_PI;
  num(n1, sizeof n1, v[R_BW]);
  snprintf(b, sizeof b, "DRAM: %s GB/s", n1);
  text(c, tx(c, lx) - 6, ty(c, lx * v[R_BW]) - 8, b, 13, 0.5, 1, ang, 1);

  /* ridge */
  color(c, 0.4, 0.4, 0.4);
  cairo_set_line_width(cr, 1);
  dashed(c, 1);
  line(c, v[R_RIDGE], c->y0, v[R_RIDGE], v[R_PEAK]);
  dashed(c, 0);
  num(n1, sizeof n1, v[R_RIDGE]);
  snprintf(b, sizeof b, "ridge %s FLOP/B", n1);
  text(c, tx(c, v[R_RIDGE]) + 6, c->py1 - 8, b, 12, 0, 1, 0, 0);

  /* the kernel */
  if (isfinite(v[R_AI]) && v[R_AI] > 0) {
    color(c, 0.85, 0.1, 0.1);
    dashed(c, 1);
    line(c, v[R_AI], c->y0, v[R_AI], v[R_ATT]);
    dashed(c, 0);
    dot(c, v[R_AI], v[R_ATT], 7);
    num(n1, sizeof n1, v[R_AI]);
    num(n2, sizeof n2, v[R_ATT]);
    snprintf(b, sizeof b, "kernel: %s FLOP/B, %s GFLOP/s", n1, n2);
    int right = tx(c, v[R_AI]) > (c->px0 + c->px1) / 2;
    text(c, tx(c, v[R_AI]) + (right ? -10 : 10), ty(c, v[R_ATT]) + 10, b, 13,
         right ? 1 : 0, 0, 0, 1);
  }
}

int ws_report_chart_roofline(const char *path, const ws_model_result *r, ws_diag *d) {
  double v[R_N];
  /* AI may be +inf (no DRAM traffic): fetch it outside need_terms. */
  int st = need_terms(r, "roofline", roofline_terms + 1, v + 1, R_N - 1, d);
  if (st != WS_OK) return st;
  v[R_AI] = ws_model_term_value(r, WS_TERM_ROOFLINE_ARITHMETIC_INTENSITY);
  if (!(v[R_PEAK] > 0) || !(v[R_BW] > 0) || !(v[R_RIDGE] > 0)) {
    ws_diag_error(d, "roofline chart: peak, bandwidth and ridge must be > 0");
    return WS_EINVAL;
  }
  canvas c = {0};
  canvas_reset(&c);
  c.logx = c.logy = 1;
  double lo = v[R_RIDGE], hi = v[R_RIDGE];
  if (isfinite(v[R_AI]) && v[R_AI] > 0) {
    if (v[R_AI] < lo) lo = v[R_AI];
    if (v[R_AI] > hi) hi = v[R_AI];
  }
  c.x0 = pow(10, floor(log10(lo)) - 1);
  c.x1 = pow(10, ceil(log10(hi)) + 1);
  c.y1 = pow(10, ceil(log10(v[R_PEAK] * 1.5)));
  double ylo = c.x0 * v[R_BW];
  if (v[R_ATT] > 0 && v[R_ATT] < ylo) ylo = v[R_ATT];
  c.y0 = pow(10, floor(log10(ylo)));
  snprintf(c.title, sizeof c.title, "Roofline: %s",
           r->case_label ? r->case_label : "?");
  snprintf(c.desc, sizeof c.desc,
           "Williams et al. CACM'09: min(peak %.4g GFLOP/s, intensity x %.4g "
           "GB/s); kernel at %.4g FLOP/byte, %.4g GFLOP/s.",
           v[R_PEAK], v[R_BW], v[R_AI], v[R_ATT]);
  return render(path, draw_roofline, v, &c, d);
}

/* (d) Scatter chart -------------------------------------------------------*/

/* Tableau 10: distinguishable, and readable for most colour-blind readers. */
static const double scatter_palette[][3] = {
    {0.122, 0.467, 0.706}, {1.000, 0.498, 0.055}, {0.173, 0.627, 0.173},
    {0.839, 0.153, 0.157}, {0.580, 0.404, 0.741}, {0.549, 0.337, 0.294},
    {0.890, 0.467, 0.761}, {0.498, 0.498, 0.498}, {0.737, 0.741, 0.133},
    {0.090, 0.745, 0.812}};
#define SCATTER_NPALETTE (sizeof scatter_palette / sizeof scatter_palette[0])

typedef struct scatter_data {
  const ws_report_chart_scatter_spec *spec;  /* labels, axes */
  const ws_report_chart_series *series;      /* the points */
  size_t n;                           /* series */
} scatter_data;

static int scatter_usable(const canvas *c, double x, double y) {
  return isfinite(x) && isfinite(y) && (!c->logx || x > 0) && (!c->logy || y > 0);
}

/* Marker k (circle, square, triangle, diamond) centred at device (x, y). */
static void marker(cairo_t *cr, size_t k, double x, double y, double r) {
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

/* The marker of series k: colours cycle through the palette, shapes through
 * four, offset per palette round so no two of the first 40 series match. */
static size_t marker_shape(size_t k) { return k + k / SCATTER_NPALETTE; }

static void draw_scatter(canvas *c, const void *data) {
  const scatter_data *sd = data;
  cairo_t *cr = c->cr;
  axes(c, sd->spec->xlabel, sd->spec->ylabel);
  cairo_save(cr);
  clip_plot(c);
  if (sd->spec->diagonal) {
    double lo = c->x0 > c->y0 ? c->x0 : c->y0, hi = c->x1 < c->y1 ? c->x1 : c->y1;
    color(c, 0.2, 0.2, 0.2);
    cairo_set_line_width(cr, 1.2);
    dashed(c, 1);
    line(c, lo, lo, hi, hi);
    dashed(c, 0);
  }
  for (size_t k = 0; k < sd->n; k++) {
    const double *rgb = scatter_palette[k % SCATTER_NPALETTE];
    const ws_report_chart_series *s = &sd->series[k];
    for (size_t i = 0; i < s->n; i++) {
      if (!scatter_usable(c, s->x[i], s->y[i])) continue;
      marker(cr, marker_shape(k), tx(c, s->x[i]), ty(c, s->y[i]), 4);
      cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], 0.55);
      cairo_fill_preserve(cr);
      cairo_set_source_rgba(cr, rgb[0] * 0.7, rgb[1] * 0.7, rgb[2] * 0.7, 0.9);
      cairo_set_line_width(cr, 0.8);
      cairo_stroke(cr);
    }
  }
  cairo_restore(cr);

  /* Legend in the upper-left corner of the plot: series with points, then
   * the y = x line. */
  static const char diag_label[] = "y = x (exact prediction)";
  double lw = sd->spec->diagonal ? text_width(c, diag_label, 13, 0) : 0;
  size_t lines = sd->spec->diagonal ? 1 : 0;
  for (size_t k = 0; k < sd->n; k++) {
    if (!sd->series[k].n) continue;
    double w = text_width(c, sd->series[k].label, 13, 0);
    if (w > lw) lw = w;
    lines++;
  }
  if (!lines) return;
  double lx = c->px0 + 12, ly = c->py0 + 12, row = 20;
  cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
  cairo_rectangle(cr, lx, ly, lw + 42, (double)lines * row + 10);
  cairo_fill_preserve(cr);
  color(c, 0.6, 0.6, 0.6);
  cairo_set_line_width(cr, 1);
  cairo_stroke(cr);
  size_t j = 0;
  for (size_t k = 0; k < sd->n; k++) {
    if (!sd->series[k].n) continue;
    const double *rgb = scatter_palette[k % SCATTER_NPALETTE];
    double cy = ly + 5 + row * ((double)j++ + 0.5);
    marker(cr, marker_shape(k), lx + 16, cy, 5);
    color(c, rgb[0], rgb[1], rgb[2]);
    cairo_fill(cr);
    color(c, 0.05, 0.05, 0.05);
    text(c, lx + 30, cy, sd->series[k].label, 13, 0, 0.5, 0, 0);
  }
  if (sd->spec->diagonal) {
    double cy = ly + 5 + row * ((double)j + 0.5);
    color(c, 0.2, 0.2, 0.2);
    cairo_set_line_width(cr, 1.2);
    dashed(c, 1);
    cairo_move_to(cr, lx + 6, cy);
    cairo_line_to(cr, lx + 26, cy);
    cairo_stroke(cr);
    dashed(c, 0);
    color(c, 0.05, 0.05, 0.05);
    text(c, lx + 30, cy, diag_label, 13, 0, 0.5, 0, 0);
  }
}

int ws_report_chart_scatter(const char *path, const ws_report_chart_scatter_spec *spec,
                     const ws_report_chart_series *series, size_t n, ws_diag *d) {
  if (!spec) return ws_diag_error(d, "scatter chart: no spec given");
  canvas c = {0};
  canvas_reset(&c);
  c.logx = c.logy = spec->loglog ? 1 : 0;
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (size_t k = 0; k < n; k++)
    for (size_t i = 0; i < series[k].n; i++) {
      double x = series[k].x[i], y = series[k].y[i];
      if (!scatter_usable(&c, x, y)) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  if (!(x0 <= x1)) /* no points: an empty frame */
    x0 = y0 = spec->loglog ? 0.1 : 0, x1 = y1 = spec->loglog ? 10 : 1;
  if (spec->diagonal) {
    double lo = x0 < y0 ? x0 : y0, hi = x1 > y1 ? x1 : y1;
    x0 = y0 = lo, x1 = y1 = hi;
  }
  if (spec->loglog) {
    x0 = pow(10, floor(log10(x0))), x1 = pow(10, ceil(log10(x1)));
    y0 = pow(10, floor(log10(y0))), y1 = pow(10, ceil(log10(y1)));
    if (x1 <= x0) x1 = x0 * 10;
    if (y1 <= y0) y1 = y0 * 10;
  } else {
    double px = (x1 - x0) * 0.05, py = (y1 - y0) * 0.05;
    x0 -= px > 0 ? px : 1, x1 += px > 0 ? px : 1;
    y0 -= py > 0 ? py : 1, y1 += py > 0 ? py : 1;
  }
  c.x0 = x0, c.x1 = x1, c.y0 = y0, c.y1 = y1;
  snprintf(c.title, sizeof c.title, "%s", spec->title ? spec->title : "");
  snprintf(c.desc, sizeof c.desc, "%s", spec->desc ? spec->desc : "");
  scatter_data sd = {spec, series, n};
  return render(path, draw_scatter, &sd, &c, d);
}

/* (e) Block-size sweep ------------------------------------------------------*/

/* Two panels sharing the x axis (threads per block): predicted time, one
 * line per (GPU, model) -- colour by GPU, dash and marker by model -- and
 * occupancy, one line per GPU.  Hong & Kim plot time against threads per
 * block (ISCA'09 figs. 15-20), Luo & Suda time and occupancy (fig. 8). */
enum { SW_TOP_PY1 = 360, SW_BOT_PY0 = 408 };

static void sweep_style(canvas *c, size_t k, size_t m) {
  static const double dashes[][2] = {{1, 0}, {7, 4}, {2, 3}, {10, 3}};
  const double *rgb = scatter_palette[k % SCATTER_NPALETTE];
  color(c, rgb[0], rgb[1], rgb[2]);
  cairo_set_dash(c->cr, dashes[m % 4], m % 4 ? 2 : 0, 0);
  cairo_set_line_width(c->cr, 2);
}

/* One polyline through the finite points of y[r * stride], with markers. */
static void sweep_line(canvas *c, const ws_sweep_table *t, const double *y, size_t stride,
                       size_t shape) {
  int pen = 0;
  for (size_t r = 0; r < t->nrows; r++) {
    double v = y[r * stride];
    if (!isfinite(v) || (c->logy && v <= 0)) {
      pen = 0;
      continue;
    }
    if (pen) cairo_line_to(c->cr, tx(c, (double)t->threads[r]), ty(c, v));
    else cairo_move_to(c->cr, tx(c, (double)t->threads[r]), ty(c, v));
    pen = 1;
  }
  cairo_stroke(c->cr);
  cairo_set_dash(c->cr, NULL, 0, 0);
  for (size_t r = 0; r < t->nrows; r++) {
    double v = y[r * stride];
    if (!isfinite(v) || (c->logy && v <= 0)) continue;
    marker(c->cr, shape, tx(c, (double)t->threads[r]), ty(c, v), 3.5);
    cairo_fill(c->cr);
  }
}

/* The legend's entries: a colour per GPU, then (unless gpus_only, the
 * occupancy panel, or with one model) a dash and marker per model. */
static size_t sweep_legend_lines(const ws_sweep_table *t, int gpus_only) {
  size_t n = t->ngpus + (gpus_only || t->nmodels < 2 ? 0 : t->nmodels);
  return n > 20 ? 20 : n; /* the rest would leave the panel */
}

static double sweep_legend_width(canvas *c, const ws_sweep_table *t) {
  double lw = 0;
  for (size_t i = 0; i < sweep_legend_lines(t, 0); i++)
    lw = fmax(lw, text_width(c, i < t->ngpus ? t->gpus[i] : t->models[i - t->ngpus], 12, 0));
  return lw + 52;
}

/* The legend right of the plot, its top left corner at (lx, ly): it never
 * hides a line. */
static void sweep_legend(canvas *c, const ws_sweep_table *t, double lx, double ly, int gpus_only) {
  size_t lines = sweep_legend_lines(t, gpus_only), nm = lines - (lines < t->ngpus ? lines : t->ngpus);
  double row = 17;
  color(c, 0.6, 0.6, 0.6);
  cairo_set_line_width(c->cr, 1);
  cairo_rectangle(c->cr, lx, ly, sweep_legend_width(c, t), (double)lines * row + 8);
  cairo_stroke(c->cr);
  for (size_t i = 0; i < lines; i++) {
    int is_gpu = i < t->ngpus;
    size_t m = is_gpu ? 0 : i - t->ngpus;
    double cy = ly + 4 + row * ((double)i + 0.5);
    sweep_style(c, is_gpu ? i : 0, m);
    if (!is_gpu) color(c, 0.3, 0.3, 0.3);
    cairo_move_to(c->cr, lx + 6, cy);
    cairo_line_to(c->cr, lx + 34, cy);
    cairo_stroke(c->cr);
    cairo_set_dash(c->cr, NULL, 0, 0);
    if (!is_gpu || !nm) {
      marker(c->cr, m, lx + 20, cy, 3.5);
      cairo_fill(c->cr);
    }
    color(c, 0.05, 0.05, 0.05);
    text(c, lx + 42, cy, is_gpu ? t->gpus[i] : t->models[m], 12, 0, 0.5, 0, 0);
  }
}

typedef struct sweep_ranges {
  const ws_sweep_table *t;
  double y0, y1; /* the time panel's range */
  int logy;      /* the time panel is logarithmic */
} sweep_ranges;

static void draw_sweep(canvas *c, const void *data) {
  const sweep_ranges *sr = data;
  const ws_sweep_table *t = sr->t;
  /* the legends stand right of both panels */
  c->px1 = W - MR - sweep_legend_width(c, t) - 12;
  /* time panel */
  c->py0 = MT, c->py1 = SW_TOP_PY1, c->y0 = sr->y0, c->y1 = sr->y1, c->logy = sr->logy;
  axes(c, "", "predicted time (ms)");
  cairo_save(c->cr);
  clip_plot(c);
  for (size_t k = 0; k < t->ngpus; k++)
    for (size_t m = 0; m < t->nmodels; m++) {
      sweep_style(c, k, m);
      sweep_line(c, t, t->time_ms + k * t->nmodels + m, t->ngpus * t->nmodels, m);
    }
  cairo_restore(c->cr);
  sweep_legend(c, t, c->px1 + 12, c->py0, 0);
  /* occupancy panel */
  char title[sizeof c->title];
  memcpy(title, c->title, sizeof title);
  c->title[0] = '\0';
  c->py0 = SW_BOT_PY0, c->py1 = H - MB, c->y0 = 0, c->y1 = 110, c->logy = 0;
  axes(c, "threads per block", "occupancy (%)");
  memcpy(c->title, title, sizeof title);
  cairo_save(c->cr);
  clip_plot(c);
  /* GPUs with the same warp limits have the same occupancy: each line is
   * drawn narrower than the one before, so the first stays visible */
  double *pct = malloc((t->nrows ? t->nrows : 1) * t->ngpus * sizeof *pct);
  for (size_t k = 0; pct && k < t->ngpus; k++) {
    for (size_t r = 0; r < t->nrows; r++) pct[k * t->nrows + r] = 100 * t->occupancy[r * t->ngpus + k];
    sweep_style(c, k, 0);
    cairo_set_line_width(c->cr, 2 + 2.5 * (double)(t->ngpus - 1 - k) / (double)t->ngpus);
    sweep_line(c, t, pct + k * t->nrows, 1, 0);
  }
  cairo_restore(c->cr);
  sweep_legend(c, t, c->px1 + 12, c->py0, 1);
  if (!pct) c->oom = 1;
  free(pct);
}

int ws_report_chart_sweep(const char *path, const ws_sweep_table *t, ws_diag *d) {
  if (!t || !t->nrows || !t->ngpus || !t->nmodels) return ws_diag_error(d, "sweep chart: an empty sweep");
  sweep_ranges sr = {t, INFINITY, -INFINITY, 0};
  double x0 = INFINITY, x1 = -INFINITY;
  for (size_t r = 0; r < t->nrows; r++) {
    x0 = fmin(x0, (double)t->threads[r]), x1 = fmax(x1, (double)t->threads[r]);
    for (size_t i = 0; i < t->ngpus * t->nmodels; i++) {
      double v = t->time_ms[r * t->ngpus * t->nmodels + i];
      if (isfinite(v) && v > 0) sr.y0 = fmin(sr.y0, v), sr.y1 = fmax(sr.y1, v);
    }
  }
  if (!(sr.y0 <= sr.y1)) sr.y0 = 0.1, sr.y1 = 1; /* nothing ran: an empty frame */
  sr.logy = sr.y1 > 10 * sr.y0;
  if (sr.logy) {
    sr.y0 = pow(10, floor(log10(sr.y0))), sr.y1 = pow(10, ceil(log10(sr.y1)));
  } else {
    sr.y1 *= 1.1, sr.y0 = 0;
  }
  double px = (x1 - x0) * 0.04;
  canvas c = {0};
  canvas_reset(&c);
  c.x0 = x0 - (px > 0 ? px : 16), c.x1 = x1 + (px > 0 ? px : 16);
  snprintf(c.title, sizeof c.title, "%s: predicted time and occupancy against block size",
           t->kernel ? t->kernel : "kernel");
  snprintf(c.desc, sizeof c.desc,
           "warpsight sweep: %zu block sizes from %llu to %llu threads, %zu GPU(s), %zu model(s)",
           t->nrows, (unsigned long long)x0, (unsigned long long)x1, t->ngpus, t->nmodels);
  return render(path, draw_sweep, &sr, &c, d);
}

#endif /* WS_HAVE_CAIRO */
