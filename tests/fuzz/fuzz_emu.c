/*
 * fuzz_emu.c — libFuzzer entry point for the emulator.
 *
 * For every input that parses as PTX: load each kernel (unimplemented
 * instructions are refused, which is fine), give it a small launch (2 blocks
 * of 40 threads; 64-bit parameters get a 256-byte buffer, others the value
 * 3) and run it with an instruction limit.  Faults are expected; a crash, a
 * sanitizer report or a hang is a finding.  See docs/fuzzing.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpsight/emu.h"
#include "warpsight/ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ws_diag d = WS_DIAG_INIT;
  ws_ptx_module *m = NULL;
  if (ws_ptx_parse(&m, (const char *)data, size, "fuzz.ptx", &d) == WS_OK) {
    for (uint32_t i = 0; i < m->nfuncs; i++) {
      const ws_ptx_function *f = &m->funcs[i];
      if (!f->is_entry || !f->has_body || f->nparams > 8) continue;
      ws_emu_program *p = NULL;
      if (ws_emu_load(&p, m, f->name, &d) != WS_OK) continue;
      char spec[4096];
      int n = snprintf(spec, sizeof spec, "{\"kernel\": \"%s\", \"grid\": [2,1,1], \"block\": [40,1,1], "
                       "\"dynamic_shared_bytes\": 64, \"args\": [", f->name);
      for (uint32_t k = 0; k < f->nparams && n > 0 && (size_t)n < sizeof spec - 200; k++) {
        const ws_ptx_var *v = &f->params[k];
        int sz = (int)v->size;
        const char *t = sz == 8 ? NULL : sz == 4 ? (ws_ptx_type_kind((ws_ptx_type)v->type) == WS_PTX_TK_F ? "f32" : "u32")
                        : sz == 2 ? "u16" : "u8";
        if (!t)
          n += snprintf(spec + n, sizeof spec - (size_t)n, "%s{\"buffer\": \"b%u\", \"type\": \"u8\", \"count\": 256, "
                        "\"init\": {\"iota\": {\"start\": 0, \"step\": 1}}}", k ? ", " : "", k);
        else
          n += snprintf(spec + n, sizeof spec - (size_t)n, "%s{\"scalar\": \"s%u\", \"type\": \"%s\", \"value\": 3}",
                        k ? ", " : "", k, t);
      }
      if (n > 0 && (size_t)n < sizeof spec - 4) {
        strcat(spec, "]}");
        ws_launch_spec *s = NULL;
        ws_emu_launch *l = NULL;
        if (ws_emu_launch_spec_parse(&s, spec, "fuzz.json", ".", &d) == WS_OK &&
            ws_emu_launch_new(&l, p, s, &d) == WS_OK) {
          ws_emu_options o = WS_EMU_OPTIONS_INIT;
          o.threads = 1;
          o.max_warp_insts = 20000;
          o.max_launch_insts = 200000;
          ws_emu_run(l, &o, NULL, &d);
        }
        ws_emu_launch_free(l);
        ws_emu_launch_spec_free(s);
      }
      ws_emu_program_free(p);
    }
  }
  char *t = ws_diag_format(&d);
  free(t);
  ws_ptx_module_free(m);
  ws_diag_free(&d);
  return 0;
}
