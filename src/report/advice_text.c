/*
 * advice_text.c — the advisor's findings as plain text (warpsight/report.h;
 * docs/advisor.md, "Output"):
 *
 *   bottleneck: DRAM bandwidth, 95 % of the overlapped time (warpsight)
 *
 *   what to change, ranked by the warpsight model's predicted saving:
 *    1. make consecutive threads access consecutive addresses in the store in t.cu:16: ...
 *       saves 0.0014 ms, 28 % of 0.0051 ms [perfect coalescing]
 *       agree: hong-kim, gpuperf; no gain: luo-suda; not modelled: roofline
 *
 *   other models' views (their own metrics, not warpsight's):
 *     [gpuperf] B_serial = 98 % of T_exec (...): ...
 *       its direction: fewer barriers, ...
 *       ! contradicts warpsight: its changes for it (...) save at most 0.1 %
 */
#include "warpsight/report.h"

#include "util/strbuf.h"

/* "agree: a, b; no gain: c; not modelled: d" (empty lists left out). */
static void stance(ws_strbuf *b, const ws_advice_item *it) {
  const char *parts[3][2] = {{"agree", it->agree}, {"no gain", it->no_gain}, {"not modelled", it->blind}};
  int n = 0;
  for (int i = 0; i < 3; i++)
    if (parts[i][1] && *parts[i][1]) ws_sb_printf(b, "%s%s: %s", n++ ? "; " : "    ", parts[i][0], parts[i][1]);
  ws_sb_puts(b, n ? "\n" : "    no other model ran\n");
}

const char *ws_report_advice_bottleneck(const ws_advice *a) {
  if (a && a->bottleneck) return a->bottleneck;
  if (!a || !a->ran) return "unknown: no model could run on this launch (the prediction says why)";
  return "unknown (no model that ran names one)";
}

char *ws_report_advice_text(const ws_advice *a) {
  ws_strbuf b = WS_STRBUF_INIT;
  ws_sb_printf(&b, "bottleneck: %s\n", ws_report_advice_bottleneck(a));
  if (a && a->nchanges)
    ws_sb_printf(&b, "\nwhat to change, ranked by the %s model's predicted saving:\n", a->primary);
  for (size_t i = 0; a && i < a->nchanges; i++) {
    const ws_advice_item *it = &a->items[i];
    if (it->kind == WS_ADVICE_BOUND) {
      ws_sb_printf(&b, "%2zu. %s\n    try: %s\n", i + 1, it->finding, it->action);
      continue;
    }
    ws_sb_printf(&b, "%2zu. %s\n    %s [%s]\n", i + 1, it->action, it->finding, it->topic);
    stance(&b, it);
    if (it->flag) ws_sb_printf(&b, "    ! %s\n", it->flag);
  }
  if (a && a->count > a->nchanges)
    ws_sb_printf(&b, "\nother models' views (their own metrics%s%s%s):\n", a->primary ? ", not the " : "",
                 a->primary ? a->primary : "", a->primary ? " model's" : "");
  for (size_t i = a ? a->nchanges : 0; a && i < a->count; i++) {
    const ws_advice_item *it = &a->items[i];
    ws_sb_printf(&b, "  [%s] %s\n", it->model ? it->model : "?", it->finding);
    if (it->action && *it->action) ws_sb_printf(&b, "    its direction: %s\n", it->action);
    if (it->flag) ws_sb_printf(&b, "    ! %s\n", it->flag);
  }
  return ws_sb_take(&b); /* NULL after an allocation failure */
}
