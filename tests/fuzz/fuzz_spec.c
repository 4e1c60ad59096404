/*
 * fuzz_spec.c — libFuzzer entry point for the launch-spec parser
 * (ws_emu_launch_spec_parse, docs/launch-spec.md).  Every input is parsed as a
 * spec (init files are resolved but never read here); errors are expected,
 * a crash, a sanitizer report or a hang is a finding.  See docs/fuzzing.md.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "warpsight/emu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  ws_diag d = WS_DIAG_INIT;
  ws_launch_spec *s = NULL;
  ws_emu_launch_spec_parse(&s, text, "fuzz.json", ".", &d);
  free(ws_diag_format(&d));
  ws_emu_launch_spec_free(s);
  ws_diag_free(&d);
  free(text);
  return 0;
}
