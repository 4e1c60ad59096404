/*
 * warpsight/valid_data.h — validation data (docs/validation.md): a CSV reader, the
 * measured data set of Amarís et al. (data/validation/) or the generic format,
 * the data set's GPU names and the validation kernels.
 *
 * Ownership: every ws_*_load/_read/_new gives the caller an object to release
 * with the matching _free (NULL is a no-op).  Strings inside a ws_valid_data
 * are borrowed from it until ws_valid_data_free().
 */
#ifndef WARPSIGHT_VALID_DATA_H
#define WARPSIGHT_VALID_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "warpsight/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CSV (RFC 4180: comma-separated, fields may be "quoted", "" is a quote
 * inside quotes, quoted fields may hold commas and newlines; CRLF or LF). ---*/

typedef struct ws_csv {
  char *origin;     /* file name for diagnostics (owned) */
  size_t ncols;     /* columns, from the header */
  size_t nrows;     /* data rows (header excluded) */
  char *text;       /* every name and value, each NUL-terminated (owned) */
  char **header;    /* ncols names, into text (the array owned) */
  char **cells;     /* nrows * ncols values, row-major, into text (the array owned) */
  int *lines;       /* 1-based line where each data row starts (owned) */
} ws_csv;

/* Most cells (header included) one CSV input may hold: 2^22 (4,194,304),
 * 50 times the Amarís data set's 83,727, and few enough that they take
 * 32 MB of pointers beside the text.  The environment variable
 * WARPSIGHT_MAX_CSV_CELLS=N raises it (ws_valid_csv_max_cells: the limit
 * in effect). */
#define WS_CSV_MAX_CELLS (1ull << 22)
uint64_t ws_valid_csv_max_cells(void);

/* Parse CSV text.  Errors ("origin:line:col: error: ...") for an unclosed
 * quote, text after a closing quote, a row with a different number of fields
 * than the header, a NUL byte, a column name given twice, more cells than
 * ws_valid_csv_max_cells(), an empty file. */
int ws_valid_csv_parse(ws_csv **out, const char *text, size_t len,
                 const char *origin, ws_diag *d);
/* The same, parsing text[0..len) (malloc'd, len + 1 bytes) in place: it
 * becomes the ws_csv's, or is freed on error. */
int ws_valid_csv_parse_owned(ws_csv **out, char *text, size_t len, const char *origin,
                             ws_diag *d);
int ws_valid_csv_read(ws_csv **out, const char *path, ws_diag *d);
void ws_valid_csv_free(ws_csv *c);
/* Index of a column by header name, or -1. */
int ws_valid_csv_column(const ws_csv *c, const char *name);
static inline const char *ws_valid_csv_cell(const ws_csv *c, size_t row, size_t col) {
  return c->cells[row * c->ncols + col];
}

/* The measured data set --------------------------------------------------*/

typedef struct ws_valid_row {
  int line;              /* line in the CSV file */
  const char *gpu_csv;   /* GPU as the CSV names it, e.g. "GTX-680" */
  const char *gpu;       /* warpsight database name, e.g. "gtx680" */
  const char *kernel;    /* AppName: the kernel variant = extern "C" name */
  const char *signature; /* the Kernel column, e.g. "dotProd(float*, float*, float*, int)" */
  int64_t input_size;    /* Input.Size */
  uint32_t grid[3];      /* Grid.X/Y/Z */
  uint32_t block[3];     /* Block.X/Y/Z */
  int regs;              /* Registers.Per.Thread */
  int static_smem;       /* Static.SMem, bytes */
  int dynamic_smem;      /* Dynamic.SMem, bytes */
  double measured_s;     /* Duration, seconds */
  int half;              /* WS_VALID_TRAIN or WS_VALID_TEST (ws_valid_split
                            over the whole file, set by ws_valid_load) */
  /* Generic format only (docs/validation.md, "Your own kernels"): the
   * launch comes from launch_file, the kernel from kernel_file (both NULL
   * for the Amarís rows).  There regs = -1 and static_smem = -1 mean "not
   * measured": the models see the profile's own registers and shared bytes;
   * the optional columns registers and shared_bytes (static + dynamic per
   * block, kept in static_smem with dynamic_smem 0) set them. */
  const char *kernel_file; /* the kernel's PTX (or .cu), resolved against the data file */
  const char *launch_file; /* the launch spec (DESIGN.md), resolved likewise */
  int l2;                  /* the L2 at the start of the measured launch: 0 as
                              the launch spec says (cold unless its "l2" is
                              "warm"), WS_VALID_L2_COLD or WS_VALID_L2_WARM
                              (the generic column l2; docs/validation.md) */
} ws_valid_row;

/* A measured time (the Duration and seconds columns) is from 1 ns, below
 * any kernel launch, to 1e6 s (11.6 days): outside it, the number is a
 * unit mistake or damage, and percentages of it mean nothing (a
 * subnormal 1e-320 s made every error "inf%"). */
#define WS_VALID_MIN_SECONDS 1e-9
#define WS_VALID_MAX_SECONDS 1e6

enum { WS_VALID_L2_COLD = 1, WS_VALID_L2_WARM = 2 };

/* The two halves of a data set (docs/validation.md, "Train and test"). */
enum { WS_VALID_TRAIN = 1, WS_VALID_TEST = 2 };

typedef struct ws_valid_data {
  ws_csv *csv;           /* the file (owned); rows borrow its strings */
  ws_valid_row *rows;    /* nrows rows in file order (owned) */
  size_t nrows;          /* rows */
  int generic;           /* 1: the generic format (kernel_file, launch, gpu, seconds) */
  char **strings;        /* resolved paths and names rows borrow (owned) */
  size_t nstrings, strings_cap; /* used, allocated */
  /* GPU files the generic rows name: rows of GPU gpu_file_names[i] (the
   * name inside the file) use gpu_file_paths[i] (strings borrowed from
   * `strings`; the arrays owned).  Options' gpu files take precedence. */
  const char **gpu_file_names, **gpu_file_paths;
  size_t ngpu_files;                /* entries in both */
  size_t gpu_names_cap, gpu_paths_cap; /* allocated */
  unsigned flags;                   /* WS_VALID_ALLOW_OUTSIDE or 0, as loaded */
  const char *folder;               /* the data file's folder, its real path
                                       (borrowed from `strings`; NULL until needed) */
} ws_valid_data;

/* Read a measured-times CSV: the Amarís et al. columns of
 * data/validation/README.md, or the generic format (a header with
 * kernel_file; docs/validation.md).  A missing column, a non-numeric cell,
 * an unknown kernel or a launch spec that does not load is an error naming
 * file:line and the column; unknown GPU names are one error. */
int ws_valid_load(ws_valid_data **out, const char *path, ws_diag *d);
int ws_valid_load_text(ws_valid_data **out, const char *text, size_t len,
                       const char *origin, ws_diag *d);
void ws_valid_data_free(ws_valid_data *v);

/* Files the generic rows name (kernel, launch spec and the files it reads,
 * GPU file) are data, not options: a name beginning with '-' is refused (a
 * tool such as nvcc would read it as an option), and so is a file whose
 * real path (symlinks followed) lies outside the data file's folder,
 * unread and unquoted, unless flags has WS_VALID_ALLOW_OUTSIDE
 * (`validate --allow-outside-data`; docs/validation.md, "Your own
 * kernels"). */
enum { WS_VALID_ALLOW_OUTSIDE = 1 };

/* The same with extra accepted GPU names (`validate --gpu-file NAME=FILE`):
 * a row naming one of extra[0..nextra) keeps that name as its GPU; flags:
 * 0 or WS_VALID_ALLOW_OUTSIDE. */
int ws_valid_load_ex(ws_valid_data **out, const char *path, const char *const *extra,
                     size_t nextra, unsigned flags, ws_diag *d);
int ws_valid_load_text_ex(ws_valid_data **out, const char *text, size_t len,
                          const char *origin, const char *const *extra, size_t nextra,
                          unsigned flags, ws_diag *d);

/* GPU names: the table data/validation/gpu-names.csv (embedded in the
 * library) maps the data set's spellings to database names ("GTX-680" ->
 * "gtx680", "Tesla-K40" -> "k40", "TitanBlack" -> "titan-black", ...); a
 * database name maps to itself.  NULL when unknown.  The result is static. */
const char *ws_valid_gpu_name(const char *name);
/* "GTX-680 (gtx680), ...; or a database GPU: 8800gt ..." for error messages
 * (malloc'd, caller frees; NULL on ENOMEM). */
char *ws_valid_gpu_known(void);

/* The validation kernels (examples/validation/<name>.cu), in docs order. */
size_t ws_valid_kernel_count(void);
const char *ws_valid_kernel_name(size_t i);
/* 1 if `name` is one of them. */
int ws_valid_kernel_known(const char *name);

#ifdef __cplusplus
}
#endif
#endif
