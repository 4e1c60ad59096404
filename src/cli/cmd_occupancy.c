/* cmd_occupancy.c — `warpsight occupancy`: the CUDA occupancy rules. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "warpsight/gpu.h"

static const char help_text[] =
    "usage: warpsight occupancy --gpu G --threads T [--regs R] [--shared BYTES]\n\n"
    "Active blocks per SM for a block of T threads using R registers per thread\n"
    "and BYTES of shared memory (static + dynamic), on GPU G (a database name or\n"
    "a JSON file), and which of the four limits binds: blocks per SM, warps per\n"
    "SM, registers or shared memory.\n";

int cmd_occupancy(int argc, char **argv) {
  const char *gpu = NULL, *threads = NULL, *regs = "0", *shared = "0";
  cli_opt opts[] = {{"--gpu", 1, &gpu}, {"--threads", 1, &threads}, {"--regs", 1, &regs},
                    {"--shared", 1, &shared}, {NULL, 0, NULL}};
  const char *pos[1];
  int npos, help;
  if (cli_parse("occupancy", argc, argv, opts, pos, 0, &npos, help_text, &help)) return EXIT_USAGE;
  if (help) return EXIT_OK;
  if (!gpu) return cli_usage_error("occupancy", "--gpu is required");
  if (!threads) return cli_usage_error("occupancy", "--threads is required");
  long t, r, s;
  if (cli_parse_int("occupancy", "--threads", threads, &t) ||
      cli_parse_int("occupancy", "--regs", regs, &r) ||
      cli_parse_int("occupancy", "--shared", shared, &s))
    return EXIT_USAGE;
  if (t > 1 << 20 || r > 1 << 20 || s > 1 << 30)
    return cli_usage_error("occupancy", "value out of range");
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g;
  int st = ws_gpu_load(&g, gpu, &d);
  if (st) {
    cli_print_diag(&d);
    ws_diag_free(&d);
    return cli_exit_for(st);
  }
  ws_occupancy_in in = {(int)t, (int)r, (int)s};
  ws_occupancy o;
  st = ws_gpu_occupancy_compute(&o, &g->limits, g->warp_size, &in, &d);
  cli_print_diag(&d);
  ws_diag_free(&d);
  if (st == WS_OK) {
    printf("%s (compute capability %d.%d): %d threads, %d registers, %d shared bytes per block\n",
           g->name, g->cc_major, g->cc_minor, (int)t, (int)r, (int)s);
    printf("active blocks per SM: %d (%d warps, occupancy %.1f %%), limited by %s\n",
           o.active_blocks_per_sm, o.active_warps_per_sm, 100 * o.occupancy,
           ws_gpu_occ_limiter_name(o.limiter));
    char rb[32] = "not limiting", sb[32] = "not limiting";
    if (o.limit_regs < 1 << 30) snprintf(rb, sizeof rb, "%d", o.limit_regs);
    if (o.limit_shared < 1 << 30) snprintf(sb, sizeof sb, "%d", o.limit_shared);
    printf("blocks allowed by each limit: blocks/SM %d, warps/SM %d, registers %s, shared memory %s\n",
           o.limit_blocks, o.limit_warps, rb, sb);
  }
  ws_gpu_free(g);
  return cli_exit_for(st);
}
