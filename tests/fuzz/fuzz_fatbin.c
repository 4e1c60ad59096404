/*
 * fuzz_fatbin.c — libFuzzer entry point for the fat-binary reader of the
 * CUDA runtime (ws_fatbin_ptx, src/cudart/fatbin.c): every input is a
 * container of exactly its own bytes.  Errors are expected; a crash, a
 * sanitizer report or a hang is a finding (issue 24, row 2: a header size
 * running past the container was found in 56 runs).  See docs/fuzzing.md.
 */
#include <stdint.h>
#include <stdlib.h>

#include "cudart/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *ptx = NULL;
  int arch = 0;
  ws_diag d = WS_DIAG_INIT;
  /* through a copy of exactly `size` bytes, so that ASan sees every overrun */
  uint8_t *copy = malloc(size ? size : 1);
  if (!copy) return 0;
  for (size_t i = 0; i < size; i++) copy[i] = data[i];
  ws_fatbin_ptx(&ptx, &arch, size ? copy : NULL, size, 80, &d);
  free(ws_diag_format(&d));
  free(ptx);
  ws_diag_free(&d);
  free(copy);
  return 0;
}
