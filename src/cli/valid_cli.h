/*
 * valid_cli.h — what `validate` and `calibrate` share: comma lists, finding
 * the validation PTX, the progress display, the refusal while profiling is
 * not available.
 */
#ifndef WS_CLI_VALID_CLI_H
#define WS_CLI_VALID_CLI_H

#include <stddef.h>

#include "cli/prof_run.h"
#include "warpsight/util.h"

/* The most items a comma-separated option takes (--gpu, --kernels, --fix
 * of validate and calibrate); more is a usage error that names it. */
#define VCLI_MAX_ITEMS 64

/* A comma-separated list split in place into items. */
typedef struct vcli_list {
  char *buf;                       /* owned copy of the text */
  const char *v[VCLI_MAX_ITEMS];   /* items, pointing into buf */
  size_t n;                        /* items */
} vcli_list;

/* Returns 0, or EXIT_USAGE after a message (empty item, more than
 * VCLI_MAX_ITEMS). */
int vcli_split(vcli_list *out, const char *cmd, const char *opt, const char *text);
void vcli_list_free(vcli_list *l);
/* 1 when s is one of l's items or l is empty (no list given: every value). */
int vcli_selects(const vcli_list *l, const char *s);

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

struct ws_valid_data;

/* GPU files for boards: --gpu-file NAME=FILE.json (repeatable) and GPU
 * files given in --gpus.  name[i] is the database name NAME maps to
 * (ws_valid_gpu_name), else NAME itself (a board the table does not know). */
#define VCLI_MAX_GPU_FILES 16
typedef struct vcli_gpu_files {
  const char *name[VCLI_MAX_GPU_FILES];  /* GPU name the rows use */
  const char *path[VCLI_MAX_GPU_FILES];  /* its GPU file */
  char *owned[VCLI_MAX_GPU_FILES];       /* names read from files (owned) */
  size_t n;                              /* entries */
} vcli_gpu_files;

/* Remove every "--gpu-file NAME=FILE" / "--gpu-file=NAME=FILE" from argv
 * (argc updated; argv's strings are split in place) into *gf, checking that
 * each FILE loads as a GPU.  Returns 0 or EXIT_USAGE after a message. */
int vcli_take_gpu_files(vcli_gpu_files *gf, const char *cmd, int *argc, char **argv);
/* Add a GPU file for the GPU it names (its "name"); *name receives that
 * name.  Returns 0 or EXIT_USAGE after a message. */
int vcli_add_gpu_file(vcli_gpu_files *gf, const char *cmd, const char *path, const char **name);
void vcli_gpu_files_free(vcli_gpu_files *gf);
/* Resolve one --gpus/--gpu item: a GPU file (added to gf), a CSV or
 * database name (its database name), a name of gf or of a GPU file the
 * data's rows name.  *out receives the name rows use.  With data NULL
 * (before the data is read, so that a file's GPU is an accepted name) only
 * files are resolved and other items come back as they are.  Returns 0 or
 * EXIT_USAGE after one message listing the known names. */
int vcli_resolve_gpu(const char **out, vcli_gpu_files *gf, const struct ws_valid_data *data,
                     const char *cmd, const char *opt, const char *item);

struct vcli_list;

/* --kernels against the data: each item must be a validation kernel or a
 * kernel of the file's rows.  Returns 0 or EXIT_USAGE after one message
 * listing the known kernels. */
int vcli_check_kernels(const vcli_list *k, const struct ws_valid_data *data, const char *cmd);
/* vcli_ptx_dir, except that a generic-format file (its rows name their own
 * kernel files) needs no PTX folder: buf is then "" unless --ptx-dir given. */
int vcli_data_ptx_dir(char *buf, size_t n, const char *cmd, const char *given,
                      const char *data_path, const struct ws_valid_data *data);

/* .cu kernel files of the generic format: compiled with nvcc -ptx for the
 * arch `predict` would choose for the row's GPU (cli_cu_arch_for: its
 * compute capability's sm, clamped to nvcc's range), once per file and arch,
 * into temporary folders that vcli_cu_free removes.  vcli_compile_cu is a
 * ws_valid_options.compile_cu. */
typedef struct vcli_cu_file {
  char *path;          /* the .cu file as the rows name it (owned) */
  cli_cu_cache builds; /* its compiles, one per arch */
} vcli_cu_file;
typedef struct vcli_cu {
  const char *cmd;     /* subcommand, for messages */
  vcli_cu_file *v;     /* owned */
  size_t n, cap;
} vcli_cu;
int vcli_compile_cu(char **ptx_path, const char *cu_path, const ws_gpu *g, void *user,
                    ws_diag *d);
void vcli_cu_free(vcli_cu *c);

/* Blocks profiled per launch when --sample-blocks is not given: enough to
 * average over block positions, few enough that the 8192 x 8192 products
 * (1,048,576 blocks of up to 32 warps, 8,192 k steps each) take about a
 * second (docs/validation.md, "Sampling"). */
#define VCLI_DEFAULT_SAMPLE_BLOCKS 2

#endif
