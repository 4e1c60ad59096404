/*
 * fuzz_ptx.c — libFuzzer entry point for the PTX front end.
 *
 * For every input: parse; when it parses, print it, parse the printout
 * (must succeed), print again (must give the same text: the round-trip
 * fixed point), and analyze every function body.  Any crash, sanitizer
 * report or broken round trip is a finding.  See docs/fuzzing.md.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "warpsight/analysis.h"
#include "warpsight/ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ws_diag d = WS_DIAG_INIT;
  ws_ptx_module *m = NULL;
  if (ws_ptx_parse(&m, (const char *)data, size, "fuzz.ptx", &d) == WS_OK) {
    char *t1 = NULL, *t2 = NULL;
    if (ws_ptx_print(&t1, m) == WS_OK) {
      ws_ptx_module *m2 = NULL;
      ws_diag d2 = WS_DIAG_INIT;
      if (ws_ptx_parse(&m2, t1, strlen(t1), "print.ptx", &d2) != WS_OK) abort();
      if (ws_ptx_print(&t2, m2) != WS_OK || strcmp(t1, t2) != 0) abort();
      ws_ptx_module_free(m2);
      ws_diag_free(&d2);
    }
    free(t1);
    free(t2);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
      if (!m->funcs[i].has_body) continue;
      ws_cfg *c = NULL;
      if (ws_analysis_build(&c, m, &m->funcs[i], &d) == WS_OK) {
        for (uint32_t k = 0; k < m->funcs[i].ninsts; k++)
          if (ws_analysis_cfg_reconverge_inst(c, k) > m->funcs[i].ninsts) abort();
      }
      ws_analysis_free(c);
    }
  }
  char *s = ws_diag_format(&d);
  free(s);
  ws_ptx_module_free(m);
  ws_diag_free(&d);
  return 0;
}
