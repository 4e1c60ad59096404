/*
 * fuzz_profile.c — libFuzzer entry point for the profile reader
 * (ws_profile_load_json, docs/profile.md).  An input that loads is printed
 * again with ws_profile_to_json.  Errors are expected; a crash, a sanitizer
 * report or a hang is a finding.  See docs/fuzzing.md.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "warpsight/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  ws_diag d = WS_DIAG_INIT;
  ws_profile *p = NULL;
  if (ws_profile_load_json(&p, text, "fuzz.json", &d) == WS_OK) free(ws_profile_to_json(p));
  free(ws_diag_format(&d));
  ws_profile_free(p);
  ws_diag_free(&d);
  free(text);
  return 0;
}
