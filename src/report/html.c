/*
 * html.c — the HTML report of `predict`, `exec`, `validate` and `sweep`
 * (--report DIR writes DIR/index.html; warpsight/report.h, docs/charts.md
 * "The HTML report").  One self-contained page: the styles and a small
 * script inline, every chart an inline SVG (the cairo charts' SVG text, or
 * bars drawn here), no network, no fonts or scripts from elsewhere.
 *
 * Sections carry fixed ids (launch, models, advice, lines, charts, sweep,
 * validation, exec) that tests/cli/report_html.sh looks for in the page a
 * headless browser renders; the script, when it ran without an error,
 * adds the element #ws-script-ok, and an error anywhere adds
 * #ws-script-error with its message.
 */
#include "warpsight/report.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/escape.h"
#include "report/report_json.h"
#include "util/strbuf.h"

struct ws_html {
  ws_strbuf body; /* the sections so far */
  char *title;    /* the page's title (owned) */
  unsigned nsvg;  /* SVG files inlined so far: each one's ids get "sN-" */
};

ws_html *ws_report_html_new(const char *title) {
  ws_html *h = calloc(1, sizeof *h);
  if (h && !(h->title = ws_strdup(title ? title : "warpsight report"))) {
    free(h);
    h = NULL;
  }
  return h;
}

void ws_report_html_free(ws_html *h) {
  if (!h) return;
  ws_sb_free(&h->body);
  free(h->title);
  free(h);
}

static void escf(ws_strbuf *b, const char *f, ...) __attribute__((format(printf, 2, 3)));
static void escf(ws_strbuf *b, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  ws_strbuf t = WS_STRBUF_INIT;
  ws_sb_vprintf(&t, f, ap);
  va_end(ap);
  ws_report_xml_escape(b, ws_sb_str(&t));
  ws_sb_free(&t);
}

void ws_report_html_heading(ws_html *h, const char *text) {
  ws_sb_puts(&h->body, "<h2 class=\"set\">");
  ws_report_xml_escape(&h->body, text);
  ws_sb_puts(&h->body, "</h2>\n");
}

/* A number for a table cell. */
static void num(ws_strbuf *b, double v) {
  if (isfinite(v)) ws_sb_printf(b, "%.6g", v);
  else ws_sb_puts(b, "&ndash;");
}

/* A horizontal bar of `share` (0..1) of `width` pixels, inline SVG. */
static void bar(ws_strbuf *b, double share, int width, const char *cls) {
  if (!(share > 0)) share = 0;
  if (share > 1) share = 1;
  ws_sb_printf(b,
               "<svg class=\"bar %s\" width=\"%d\" height=\"12\" role=\"img\" aria-label=\"%.1f %%\">"
               "<rect width=\"%d\" height=\"12\" class=\"track\"/><rect width=\"%.1f\" height=\"12\"/></svg>",
               cls, width, 100 * share, width, share * width);
}

/* --- sections ---------------------------------------------------------- */

void ws_report_html_launch(ws_html *h, const ws_profile *p, const ws_gpu *g) {
  ws_strbuf *b = &h->body;
  const ws_profile_fields *f = &p->f;
  char label[1024];
  ws_report_kernel_label(label, sizeof label, p->kernel);
  ws_sb_puts(b, "<section id=\"launch\" class=\"launch\"><h3>The launch</h3><table>\n");
  ws_sb_puts(b, "<tr><th>kernel</th><td><code>");
  ws_report_xml_escape(b, label);
  ws_sb_printf(b, "</code></td></tr>\n<tr><th>grid, block</th><td>%u &times; %u &times; %u blocks of "
                  "%u &times; %u &times; %u threads</td></tr>\n",
               p->grid[0], p->grid[1], p->grid[2], p->block[0], p->block[1], p->block[2]);
  ws_sb_puts(b, "<tr><th>GPU</th><td>");
  escf(b, "%s (%s, CC %d.%d, %d SMs)", g->name, g->full_name, g->cc_major, g->cc_minor, (int)g->sms);
  ws_sb_puts(b, "</td></tr>\n");
  ws_model_launch_ctx lc;
  ws_diag d = WS_DIAG_INIT;
  if (ws_model_launch_ctx_compute(&lc, p, g, &d) == WS_OK && g->limits.max_warps_per_sm > 0) {
    ws_sb_printf(b, "<tr><th>occupancy</th><td>%g blocks, %g warps per SM (%.0f %%); ", lc.active_blocks_per_sm,
                 lc.active_warps_per_sm, 100 * lc.active_warps_per_sm / g->limits.max_warps_per_sm);
    ws_report_xml_escape(b, lc.occupancy_source);
    ws_sb_puts(b, "</td></tr>\n");
  }
  ws_diag_free(&d);
  ws_sb_printf(b, "<tr><th>resources</th><td>%g registers per thread, %g shared bytes per block</td></tr>\n",
               f->registers_per_thread, f->shared_bytes_per_block);
  ws_sb_printf(b, "<tr><th>instructions</th><td>%.6g per warp (%.6g computation, %.6g memory, %.6g barriers)"
                  "</td></tr>\n",
               ws_profile_total_insts(p), f->comp_insts, ws_profile_mem_insts(p), f->synch_insts);
  ws_sb_printf(b, "<tr><th>global memory</th><td>%.4g transactions per request, %.4g bytes per request; "
                  "L1 hit %.1f %%, L2 hit %.1f %%; DRAM %.4g MB read, %.4g MB written</td></tr>\n",
               f->avg_trans_warp, f->load_bytes_per_warp, 100 * f->l1_hit_ratio, 100 * f->l2_hit_ratio,
               f->dram_read_bytes / 1e6, f->dram_write_bytes / 1e6);
  ws_sb_printf(b, "<tr><th>shared memory, divergence</th><td>%.4g bank-conflict replays per warp; "
                  "%.4g extra warp instructions per warp from divergence</td></tr>\n",
               f->bank_conflict_replays, f->divergent_extra_insts);
  ws_sb_puts(b, "</table></section>\n");
}

void ws_report_html_models(ws_html *h, const ws_model_result *res, size_t n, const ws_floors *fl) {
  ws_strbuf *b = &h->body;
  double most = 0;
  for (size_t i = 0; i < n; i++)
    if (isfinite(res[i].time_ms) && res[i].time_ms > most) most = res[i].time_ms;
  ws_sb_puts(b, "<section id=\"models\"><h3>The models</h3>\n<table class=\"models\"><tr><th>model</th>"
                "<th>predicted ms</th><th></th><th>cycles</th><th>limited by</th><th>floors</th></tr>\n");
  for (size_t i = 0; i < n; i++) {
    const ws_model_result *r = &res[i];
    char why[256];
    const char *below = fl ? ws_model_floors_check(why, sizeof why, fl, r->time_ms) : NULL;
    ws_sb_puts(b, "<tr><td>");
    ws_report_xml_escape(b, r->model);
    ws_sb_puts(b, "</td><td class=\"n\">");
    num(b, r->time_ms);
    ws_sb_puts(b, "</td><td>");
    bar(b, most > 0 ? r->time_ms / most : 0, 160, "time");
    ws_sb_puts(b, "</td><td class=\"n\">");
    num(b, r->cycles);
    ws_sb_puts(b, "</td><td>");
    ws_report_xml_escape(b, ws_model_limiter(r));
    ws_sb_puts(b, "</td><td>");
    ws_report_xml_escape(b, below ? below : "above both");
    ws_sb_puts(b, "</td></tr>\n");
  }
  ws_sb_puts(b, "</table>\n<div class=\"cards\">\n");
  for (size_t i = 0; i < n; i++) {
    const ws_model_result *r = &res[i];
    ws_sb_puts(b, "<details class=\"card\"><summary>");
    ws_report_xml_escape(b, r->model);
    ws_sb_puts(b, ": its terms</summary><table class=\"terms\"><tr><th>term</th><th>value</th><th>unit</th>"
                  "<th>equation or source</th></tr>\n");
    for (size_t t = 0; t < r->nterms; t++) {
      const ws_term_info *ti = ws_model_term_info(r->terms[t].id);
      ws_sb_puts(b, "<tr><td><code>");
      ws_report_xml_escape(b, ti->name);
      ws_sb_puts(b, "</code></td><td class=\"n\">");
      num(b, r->terms[t].value);
      ws_sb_puts(b, "</td><td>");
      ws_report_xml_escape(b, ti->unit);
      ws_sb_puts(b, "</td><td>");
      ws_report_xml_escape(b, r->terms[t].equation);
      ws_sb_puts(b, "</td></tr>\n");
    }
    ws_sb_puts(b, "</table></details>\n");
  }
  ws_sb_puts(b, "</div></section>\n");
}

void ws_report_html_advice(ws_html *h, const ws_advice *a) {
  ws_strbuf *b = &h->body;
  ws_sb_puts(b, "<section id=\"advice\"><h3>Bottleneck and advice</h3>\n<p class=\"bottleneck\">");
  ws_report_xml_escape(b, ws_report_advice_bottleneck(a));
  ws_sb_puts(b, "</p>\n");
  if (a && a->nchanges) {
    ws_sb_puts(b, "<p>What to change, ranked by the ");
    ws_report_xml_escape(b, a->primary);
    ws_sb_puts(b, " model's predicted saving:</p>\n<ol class=\"changes\">\n");
  }
  for (size_t i = 0; a && i < a->nchanges; i++) {
    const ws_advice_item *it = &a->items[i];
    ws_sb_puts(b, "<li>");
    if (it->kind == WS_ADVICE_BOUND) {
      ws_report_xml_escape(b, it->finding);
      ws_sb_puts(b, "<br><b>try:</b> ");
      ws_report_xml_escape(b, it->action);
    } else {
      ws_report_xml_escape(b, it->action);
      ws_sb_puts(b, "<br>");
      bar(b, it->share, 120, "saving");
      ws_sb_puts(b, " ");
      ws_report_xml_escape(b, it->finding);
      ws_sb_puts(b, " <span class=\"topic\">[");
      ws_report_xml_escape(b, it->topic);
      ws_sb_puts(b, "]</span><br><span class=\"stance\">");
      if (it->agree && *it->agree) escf(b, "agree: %s. ", it->agree);
      if (it->no_gain && *it->no_gain) escf(b, "no gain: %s. ", it->no_gain);
      if (it->blind && *it->blind) escf(b, "not modelled: %s.", it->blind);
      ws_sb_puts(b, "</span>");
      if (it->flag) {
        ws_sb_puts(b, "<br><span class=\"flag\">! ");
        ws_report_xml_escape(b, it->flag);
        ws_sb_puts(b, "</span>");
      }
    }
    ws_sb_puts(b, "</li>\n");
  }
  if (a && a->nchanges) ws_sb_puts(b, "</ol>\n");
  if (a && a->count > a->nchanges) ws_sb_puts(b, "<p>Other models' views (their own metrics):</p>\n<ul class=\"views\">\n");
  for (size_t i = a ? a->nchanges : 0; a && i < a->count; i++) {
    const ws_advice_item *it = &a->items[i];
    ws_sb_puts(b, "<li><b>");
    ws_report_xml_escape(b, it->model);
    ws_sb_puts(b, "</b>: ");
    ws_report_xml_escape(b, it->finding);
    if (it->action && *it->action) {
      ws_sb_puts(b, "<br>its direction: ");
      ws_report_xml_escape(b, it->action);
    }
    if (it->flag) {
      ws_sb_puts(b, "<br><span class=\"flag\">! ");
      ws_report_xml_escape(b, it->flag);
      ws_sb_puts(b, "</span>");
    }
    ws_sb_puts(b, "</li>\n");
  }
  if (a && a->count > a->nchanges) ws_sb_puts(b, "</ul>\n");
  ws_sb_puts(b, "</section>\n");
}

void ws_report_html_lines(ws_html *h, const ws_profile *p, const ws_model_result *primary,
                          const char *const *source) {
  ws_strbuf *b = &h->body;
  ws_sb_puts(b, "<section id=\"lines\"><h3>Source lines</h3>\n");
  const ws_profile_lines *l = p->lines;
  if (!l || !l->nrows) {
    ws_sb_puts(b, "<p>The profile has no line table.</p></section>\n");
    return;
  }
  ws_line_metric m = ws_advise_line_metric(primary);
  double lat = primary ? ws_model_term_value(primary, WS_TERM_WARPSIGHT_LOAD_LATENCY) : NAN;
  if (!(lat > 0)) lat = 400;
  double total = 0;
  for (size_t i = 0; i < l->nrows; i++) total += ws_advise_line_weight(&l->rows[i], m, lat);
  ws_sb_printf(b, "<p>%s; each bar is the line's share of %s%s (docs/advisor.md, \"Lines\"); "
                  "counts per warp, DRAM for the launch; path cycles per block: its loads on the "
                  "longest dependency path at %.0f cycles each plus its other cycles there.  Click a "
                  "column's name to sort.</p>\n",
               l->ptx_lines ? "PTX lines: the PTX has no -lineinfo" : "Source lines (-lineinfo)",
               ws_report_line_metric_name(m), primary ? ", what limits the kernel" : "",
               lat);
  ws_sb_puts(b, "<table class=\"lines sortable\"><thead><tr><th>line</th><th>share (%)</th><th></th>"
                "<th>insts</th><th>trans/req</th><th>DRAM MB</th><th>replays</th><th>div. br.</th>"
                "<th>atomic ser.</th><th>path cycles</th><th>source</th></tr></thead><tbody>\n");
  for (size_t i = 0; i < l->nrows; i++) {
    const ws_profile_line *r = &l->rows[i];
    double share = total > 0 ? ws_advise_line_weight(r, m, lat) / total : 0;
    char name[512];
    ws_sb_puts(b, "<tr><td>");
    ws_report_xml_escape(b, ws_advise_line_name(name, sizeof name, l, r));
    ws_sb_printf(b, "</td><td class=\"n\">%.1f</td><td>", 100 * share);
    bar(b, share, 100, "line");
    ws_sb_printf(b, "</td><td class=\"n\">%.4g</td><td class=\"n\">", r->warp_insts);
    if (r->global_requests > 0)
      ws_sb_printf(b, "%.3g (%.3g)", r->sectors / r->global_requests, r->sectors_needed / r->global_requests);
    ws_sb_printf(b, "</td><td class=\"n\">%.4g</td><td class=\"n\">%.4g</td><td class=\"n\">%.4g</td>"
                    "<td class=\"n\">%.4g</td><td class=\"n\">%.4g</td><td><code>",
                 r->dram_bytes / 1e6, r->bank_conflict_replays, r->divergent_branches, r->atomic_serial,
                 r->path_mem_loads * lat + r->path_cycles);
    ws_report_xml_escape(b, source && source[i] ? source[i] : "");
    ws_sb_puts(b, "</code></td></tr>\n");
  }
  ws_sb_puts(b, "</tbody></table></section>\n");
}

int ws_report_html_svg(ws_html *h, const char *id, const char *heading, const char *svg_path, ws_diag *d) {
  char *text = NULL;
  size_t len = 0;
  int st = ws_read_file(&text, &len, svg_path, d);
  if (st) return st;
  const char *svg = strstr(text, "<svg");
  ws_strbuf *b = &h->body;
  ws_sb_printf(b, "<figure class=\"chart\"%s%s%s><figcaption>", id ? " id=\"" : "", id ? id : "", id ? "\"" : "");
  ws_report_xml_escape(b, heading);
  ws_sb_puts(b, "</figcaption>\n");
  /* cairo names its glyphs and clips glyph0-1, clip1, ... in every file:
   * inlined side by side they would collide, so each file's ids and the
   * references to them (href="#x", url(#x)) get a prefix of their own */
  char pre[32];
  snprintf(pre, sizeof pre, "s%u-", ++h->nsvg);
  static const char *const refs[] = {"id=\"", "href=\"#", "url(#"};
  for (const char *c = svg, *end = text + len; c && c < end;) {
    const char *next = NULL;
    size_t k = 0;
    for (size_t r = 0; r < 3; r++) {
      const char *f = strstr(c, refs[r]);
      if (f && (!next || f < next)) next = f, k = r;
    }
    if (!next) {
      ws_sb_putn(b, c, (size_t)(end - c));
      break;
    }
    next += strlen(refs[k]);
    ws_sb_putn(b, c, (size_t)(next - c));
    ws_sb_puts(b, pre);
    c = next;
  }
  ws_sb_puts(b, "</figure>\n");
  free(text);
  return WS_OK;
}

void ws_report_html_open(ws_html *h, const char *id, const char *heading) {
  ws_sb_printf(&h->body, "<section id=\"%s\"><h3>", id);
  ws_report_xml_escape(&h->body, heading);
  ws_sb_puts(&h->body, "</h3>\n");
}

void ws_report_html_close(ws_html *h) { ws_sb_puts(&h->body, "</section>\n"); }

void ws_report_html_pre(ws_html *h, const char *text) {
  ws_sb_puts(&h->body, "<pre>");
  ws_report_xml_escape(&h->body, text);
  ws_sb_puts(&h->body, "</pre>\n");
}

void ws_report_html_note(ws_html *h, const char *text) {
  ws_sb_puts(&h->body, "<p class=\"note\">");
  ws_report_xml_escape(&h->body, text);
  ws_sb_puts(&h->body, "</p>\n");
}

/* --- the page ------------------------------------------------------------ */

static const char style[] =
    "body{font-family:sans-serif;margin:1.5em auto;max-width:78em;color:#222;line-height:1.35}"
    "h1{font-size:1.5em}h2.set{border-top:2px solid #4e79a7;padding-top:.5em}"
    "table{border-collapse:collapse;margin:.5em 0}th,td{padding:.15em .5em;text-align:left;"
    "vertical-align:top}tr:nth-child(even){background:#f4f6f9}td.n{text-align:right;"
    "font-variant-numeric:tabular-nums}code{font-family:monospace;white-space:pre}"
    "svg.bar rect{fill:#4e79a7}svg.bar rect.track{fill:#e3e8ef}svg.saving rect{fill:#59a14f}"
    "svg.saving rect.track{fill:#e3e8ef}svg.line rect{fill:#e15759}svg.line rect.track{fill:#f3e1e1}"
    ".cards{display:flex;flex-wrap:wrap;gap:.5em}.card{border:1px solid #ccd;padding:.3em .6em}"
    ".flag{color:#b00}.stance,.topic,.note{color:#555}figure.chart svg{max-width:100%;height:auto}"
    "table.sortable th{cursor:pointer}footer{margin-top:2em;color:#777;font-size:.9em}";

/* Sortable tables, and the marker the browser test looks for.  An error
 * anywhere becomes #ws-script-error with its message. */
static const char script[] =
    "(function(){"
    "function mark(id,text){var p=document.createElement('p');p.id=id;p.textContent=text;"
    "document.getElementById('ws-footer').appendChild(p);}"
    "window.addEventListener('error',function(e){mark('ws-script-error',String(e.message));});"
    "try{"
    "var tables=document.querySelectorAll('table.sortable');"
    "for(var i=0;i<tables.length;i++){(function(t){var ths=t.querySelectorAll('th');"
    "for(var c=0;c<ths.length;c++){(function(col){ths[col].addEventListener('click',function(){"
    "var body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows);"
    "rows.sort(function(a,b){var x=parseFloat(a.cells[col].textContent),y=parseFloat(b.cells[col].textContent);"
    "if(isNaN(x)||isNaN(y))return a.cells[col].textContent.localeCompare(b.cells[col].textContent);"
    "return y-x;});rows.forEach(function(r){body.appendChild(r);});});})(c);}})(tables[i]);}"
    "mark('ws-script-ok','the page script ran');"
    "}catch(e){mark('ws-script-error',String(e));}"
    "})();";

int ws_report_html_write(const ws_html *h, const char *path, ws_diag *d) {
  ws_strbuf page = WS_STRBUF_INIT;
  ws_sb_puts(&page, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
  ws_report_xml_escape(&page, h->title);
  ws_sb_printf(&page, "</title>\n<style>%s</style>\n</head><body>\n<h1>", style);
  ws_report_xml_escape(&page, h->title);
  ws_sb_puts(&page, "</h1>\n");
  ws_sb_puts(&page, ws_sb_str(&h->body));
  ws_sb_printf(&page, "<footer id=\"ws-footer\">Written by warpsight (docs/charts.md, \"The HTML report\"): "
                      "self-contained, no network.</footer>\n<script>%s</script>\n</body></html>\n",
               script);
  char *text = ws_sb_take(&page);
  if (!text) return ws_diag_error(d, "%s: out of memory", path), WS_ENOMEM;
  ws_outfile o;
  int st = ws_outfile_open(&o, path, d);
  if (!st) {
    fputs(text, o.f);
    st = ws_outfile_commit(&o, d);
  }
  free(text);
  return st;
}
