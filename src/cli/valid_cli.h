/*
 * valid_cli.h — what `validate` and `calibrate` share: comma lists, finding
 * the validation PTX, the progress display, the refusal while profiling is
 * not available.
 */
#ifndef WS_CLI_VALID_CLI_H
#define WS_CLI_VALID_CLI_H

#include <stddef.h>

/* A comma-separated list split in place into items (at most max). */
typedef struct vcli_list {
  char *buf;           /* owned copy of the text */
  const char *v[64];   /* items, pointing into buf */
  size_t n;            /* items */
} vcli_list;

/* Returns 0, or EXIT_USAGE after a message (empty item, too many). */
int vcli_split(vcli_list *out, const char *cmd, const char *opt, const char *text);
void vcli_list_free(vcli_list *l);

/* The folder with <kernel>.sm_75.ptx: `given` if set, else
 * examples/validation/ptx under the current folder, else next to the data
 * file's repository (DATA/../../examples/validation/ptx).  Writes into buf;
 * returns 0 or EXIT_USAGE after a message. */
int vcli_ptx_dir(char *buf, size_t n, const char *cmd, const char *given, const char *data);

/* Cache folder from --cache / --no-cache (NULL: no cache); buf holds it. */
const char *vcli_cache_dir(char *buf, size_t n, const char *cache, const char *no_cache);

/* Progress on stderr: a bar when stderr is a terminal, else a plain line
 * every 10 % (and at the end).  `user` is the command name. */
void vcli_progress(size_t done, size_t total, void *user);

/* Blocks profiled per launch when --sample-blocks is not given: enough to
 * average over block positions, few enough that the 8192 x 8192 products
 * (1,048,576 blocks of up to 32 warps, 8,192 k steps each) take about a
 * second (docs/validation.md, "Sampling"). */
#define VCLI_DEFAULT_SAMPLE_BLOCKS 2

#endif
