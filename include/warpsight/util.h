/*
 * warpsight/util.h — status codes, diagnostics and the arena allocator.
 *
 * Every library call returns an int status (WS_OK or a negative WS_E*) and
 * records what went wrong in a ws_diag list owned by the caller.  The library
 * never prints, aborts or exits; the CLI turns statuses into exit codes.
 *
 * Ownership: a ws_diag owns its messages; free it with ws_diag_free().
 * A ws_arena owns every block it handed out; ws_arena_free() releases them all.
 */
#ifndef WARPSIGHT_UTIL_H
#define WARPSIGHT_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes.  Order does not matter; values are part of the ABI. */
enum {
  WS_OK = 0,
  WS_EINVAL = -1,   /* bad input: malformed file, bad argument, unknown name */
  WS_ENOMEM = -2,   /* allocation failed */
  WS_EIO = -3,      /* file could not be read or written */
  WS_EFAULT = -4,   /* the emulated kernel faulted (exit status 1 in the CLI) */
  WS_EUNSUP = -5,   /* valid input the library does not implement */
  WS_EMISSING = -6  /* a model lacks an input field it needs */
};

typedef enum ws_severity {
  WS_SEV_ERROR,   /* stops the operation */
  WS_SEV_WARNING, /* the result is usable, but the user should know */
  WS_SEV_NOTE     /* extra context for the previous diagnostic */
} ws_severity;

/* One diagnostic.  `file` may be NULL; line/col are 1-based, 0 when unknown. */
typedef struct ws_diag_entry {
  ws_severity severity; /* error, warning or note */
  char *file;           /* owned copy of the file name, or NULL */
  int line;             /* 1-based line, 0 if not applicable */
  int col;              /* 1-based column, 0 if not applicable */
  char *message;        /* owned, without trailing newline */
  char *source_line;    /* owned copy of the offending source line, or NULL */
} ws_diag_entry;

/* A growable list of diagnostics. Zero-initialise before use. */
typedef struct ws_diag {
  ws_diag_entry *items; /* owned array */
  size_t count;         /* entries in use */
  size_t cap;           /* entries allocated */
  size_t errors;        /* how many entries are WS_SEV_ERROR */
} ws_diag;

#define WS_DIAG_INIT {NULL, 0, 0, 0}

/* Longest message or source line a diagnostic keeps, in bytes: longer ones
 * (a 100 MB kernel name echoed in "no kernel named ...") end with "…"
 * after this many bytes. */
#define WS_DIAG_MAX_MESSAGE 1000

/* Record a diagnostic.  Always returns WS_EINVAL so callers can write
 * `return ws_diag_add(...)`.  Allocation failures drop the message silently
 * but still count it as an error. */
int ws_diag_add(ws_diag *d, ws_severity sev, const char *file, int line,
                int col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
int ws_diag_addv(ws_diag *d, ws_severity sev, const char *file, int line,
                 int col, const char *fmt, va_list ap);
/* Shorthand for an error without location. */
int ws_diag_error(ws_diag *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Name what ran out of memory: when st is WS_ENOMEM and no error was
 * recorded in d since it counted errors_before errors (d->errors then),
 * records "FILE: error: out of memory while <fmt...>" (file may be NULL).
 * Returns st unchanged, so a part's entry point can end with
 * `return ws_diag_oom(d, st, before, file, "profiling kernel '%s'", k);`. */
int ws_diag_oom(ws_diag *d, int st, size_t errors_before, const char *file, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Attach the offending source line to the last entry (for the caret). */
void ws_diag_set_source(ws_diag *d, const char *line_start, size_t len);
/* Add a copy of every entry of from (with its source line) to the end of
 * d; d NULL: nothing. */
void ws_diag_append(ws_diag *d, const ws_diag *from);
/* Render every entry as "file:line:col: error: msg" (+ source and caret)
 * into a malloc'd string the caller frees.  Returns NULL on ENOMEM. */
char *ws_diag_format(const ws_diag *d);
/* One entry rendered the same way (malloc'd; NULL on ENOMEM). */
char *ws_diag_format_entry(const ws_diag_entry *e);
/* Write ws_diag_format's text to f, one entry a line; entries without a file
 * begin with "who: " (the program name) so every line says who speaks.
 * Returns WS_OK or WS_ENOMEM (nothing written). */
int ws_diag_print(FILE *f, const ws_diag *d, const char *who);
void ws_diag_clear(ws_diag *d);
void ws_diag_free(ws_diag *d);

/* Arena: bump allocator for data that dies together (IR, interned names).
 * Build with -DWS_ARENA_DEBUG to hand each allocation to malloc so that
 * AddressSanitizer sees every block on its own. */
typedef struct ws_arena ws_arena;

ws_arena *ws_arena_new(void);
void *ws_arena_alloc(ws_arena *a, size_t size);   /* 16-byte aligned, zeroed */
char *ws_arena_strndup(ws_arena *a, const char *s, size_t n);
void ws_arena_free(ws_arena *a);                  /* NULL is a no-op */

/* Largest input file read whole: 1 GiB, far above any PTX, launch spec, GPU
 * file, profile or CSV warpsight uses (the bundled ones are under 1 MiB),
 * and small enough that reading one cannot exhaust a machine's memory. */
#define WS_MAX_INPUT_BYTES (1ull << 30)

/* Read a whole file into a NUL-terminated malloc'd buffer.  Regular files
 * only (a FIFO, a device or a directory is refused, so nothing blocks or
 * reads forever), at most WS_MAX_INPUT_BYTES.  On error returns WS_EIO
 * (cannot open or read), WS_EINVAL (not a regular file, too large) or
 * WS_ENOMEM, with a diagnostic naming the file and the OS's reason. */
int ws_read_file(char **out, size_t *out_len, const char *path, ws_diag *d);
/* Open an input file for reading with ws_read_file's checks (regular file,
 * at most max_bytes by its size); *out_size gets the size.  The caller
 * fcloses *out. */
int ws_open_input(FILE **out, uint64_t *out_size, const char *path, uint64_t max_bytes,
                  ws_diag *d);

/* An output file being written: ws_outfile_open creates a temporary file
 * beside `path` (O_EXCL: never through a symlink or into an existing file);
 * write to `f`; ws_outfile_commit flushes, syncs and renames it over path
 * (a symlink there is replaced, not followed), or on any error removes it,
 * leaves the old file alone and reports the OS's reason; ws_outfile_discard
 * drops it.  Only a regular file, a symlink to one or nothing at path is
 * replaced: a device node, a FIFO, a socket or a folder there is an error
 * ("it is a character device; an output must be a regular file") at open
 * and again at commit, and stays as it is.  Every output of the library
 * and the CLI goes through these. */
typedef struct ws_outfile {
  FILE *f;      /* write here */
  char *path;   /* destination (owned) */
  char *tmp;    /* the temporary file (owned) */
} ws_outfile;
int ws_outfile_open(ws_outfile *o, const char *path, ws_diag *d);
int ws_outfile_commit(ws_outfile *o, ws_diag *d);
void ws_outfile_discard(ws_outfile *o);
/* Write len bytes to path through a ws_outfile. */
int ws_write_file(const char *path, const void *data, size_t len, ws_diag *d);

/* The outputs of one folder, committed all or none: ws_outdir_begin makes
 * a hidden staging folder DIR/.warpsight-XXXXXX (DIR must exist); write
 * every output (ws_outfile, subfolders too) under ws_outdir_path(o);
 * ws_outdir_commit moves them into DIR: when any destination may not be
 * replaced (a folder, a device) or any move fails, every destination is
 * left or put back as it was and the error says which; ws_outdir_discard
 * drops them.  Both remove the staging folder. */
typedef struct ws_outdir {
  char *dir;    /* the destination folder (owned) */
  char *stage;  /* the staging folder inside it (owned) */
} ws_outdir;
int ws_outdir_begin(ws_outdir *o, const char *dir, ws_diag *d);
const char *ws_outdir_path(const ws_outdir *o);
int ws_outdir_commit(ws_outdir *o, ws_diag *d);
void ws_outdir_discard(ws_outdir *o);
/* In d's entries from index `from` on, the staging folder's path is
 * written as the destination's ("DIR/out.bin: error: cannot write ..."),
 * so that messages of writers into ws_outdir_path name the real file. */
void ws_outdir_names(const ws_outdir *o, ws_diag *d, size_t from);

#ifdef __cplusplus
}
#endif
#endif
