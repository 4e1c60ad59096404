/*
 * lines.h — private to src/profile: the per-line table of a profile
 * (ws_profile_lines, section "lines"; docs/profile.md, "lines"): built by
 * the profiler from its per-instruction counts, read from and written to
 * JSON with the other typed sections.
 */
#ifndef WS_PROFILE_LINES_H
#define WS_PROFILE_LINES_H

#include <cjson/cJSON.h>

#include "warpsight/profile.h"
#include "warpsight/ptx.h"

/* One instruction's counts over the profiled blocks (sums, not per warp). */
typedef struct ws_line_in {
  double execs;          /* warp executions */
  double requests;       /* global/local requests */
  double sectors;        /* their transactions */
  double needed;         /* the transactions their bytes need */
  double read_sectors;   /* sectors that read DRAM-backed memory (loads, atomics) */
  double write_sectors;  /* sectors written (stores, atomics) */
  double sh_requests;    /* shared requests */
  double replays;        /* their bank-conflict replays */
  double branches;       /* branch executions */
  double div_branches;   /* ... that diverged */
  double atom_requests;  /* atomic/reduction requests */
  double atom_serial;    /* per request, the most lanes on one address, summed */
  double path_mem;       /* loads it put on the blocks' longest paths, summed over blocks */
  double path_cyc;       /* other cycles it put there, summed over blocks */
  double loop_loads;     /* the innermost loop around it: global/local loads per trip */
  double loop_trips;     /* ... and its trips per entry (both 0 outside a loop) */
  uint32_t kinds;        /* WS_LINE_* */
} ws_line_in;

/* The table of module m's instructions (in[func_base[f] + pc], ninst in
 * all) into *out: each instruction under its .loc line (file and line of
 * the .file it names), or under its PTX line of `ptx_name` when it has no
 * .loc; per warp over W profiled warps, path figures per block over
 * path_blocks; the launch's DRAM bytes (dram_read, dram_write) shared by
 * the read and written sectors.  Instructions that never ran make no row.
 * WS_OK or WS_ENOMEM (*out NULL). */
int ws_prof_lines_build(ws_profile_lines **out, const ws_ptx_module *m, const uint32_t *func_base,
                        const ws_line_in *in, double W, double path_blocks, double skipped,
                        const char *ptx_name, double dram_read, double dram_write);

/* root["lines"] into p->lines (absent: NULL).  Errors name the JSON path. */
int ws_profile_lines_read(ws_profile *p, const cJSON *root, const char *origin, ws_diag *d);
/* Adds "lines" to root (nothing without a table).  WS_OK or WS_ENOMEM. */
int ws_profile_lines_write(cJSON *root, const ws_profile_lines *l);
void ws_profile_lines_free(ws_profile_lines *l);

#endif
