/*
 * advice_text.c — the advisor's findings as plain text (warpsight/report.h).
 *
 *   bottleneck: memory-bound (gpuperf: T_mem' = ... > T_comp = ...)
 *    1. [gpuperf] B_memlp = 38 % of run time (...): ...
 *       try: raise memory-level parallelism: ...
 *    2. [transit] thread bound: ...
 *       try: ...
 */
#include "warpsight/report.h"

#include "util/strbuf.h"

char *ws_report_advice_text(const ws_advice *a) {
  ws_strbuf b = WS_STRBUF_INIT;
  ws_sb_printf(&b, "bottleneck: %s\n",
               a && a->bottleneck ? a->bottleneck : "unknown (no model gave one)");
  for (size_t i = 0; a && i < a->count; i++) {
    const ws_advice_item *it = &a->items[i];
    ws_sb_printf(&b, "%2zu. [%s] %s\n", i + 1, it->model ? it->model : "?", it->finding);
    if (it->action && *it->action) ws_sb_printf(&b, "    try: %s\n", it->action);
  }
  return ws_sb_take(&b); /* NULL after an allocation failure */
}
