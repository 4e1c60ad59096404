/*
 * cmd_profile.c — `warpsight profile`: run a kernel launch in the emulator
 * with the profiler on its hooks and write the warpsight-profile/1 document
 * (docs/profile.md, docs/cli-profile-predict.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/prof_run.h"

static const char help_text[] =
    "usage: warpsight profile FILE.ptx|FILE.cu --launch L.json [--gpu G] [--kernel K]\n"
    "                         [-o P.json] [--sample-blocks N] [--functional-rest] [-j N]\n"
    "                         [--arch sm_XX]\n"
    "                         [--max-warp-insts N] [--max-launch-insts N] [--max-memory N]\n\n"
    "Runs the kernel launch described by L.json in the functional emulator and\n"
    "measures what the performance models need on GPU G: instructions per warp\n"
    "by class, global memory transactions per request under G's coalescing\n"
    "rules, L1/L2 hit ratios and DRAM traffic, shared-memory bank conflicts,\n"
    "divergence, ILP/MLP and resources.  Writes a warpsight-profile/1 document\n"
    "(docs/profile.md) to P.json or standard output; 'warpsight model --profile'\n"
    "reads it.  A .cu file is compiled with nvcc -ptx first.\n\n"
    "options:\n"
    "  -o P.json             write the profile here (default: standard output)\n"
    PROF_RUN_OPTIONS_HELP
    "\nExit status: 0 ok; 1 the kernel faulted in the emulator; 2 bad usage or input.\n";

int cmd_profile(int argc, char **argv) {
  const char *outp = NULL;
  prof_args a = {0};
  cli_opt opts[] = {PROF_ARGS_OPTS(a), {"-o", 1, &outp}, {NULL, 0, NULL}};
  const char *pos[1] = {NULL};
  int npos, help;
  if (cli_parse("profile", argc, argv, opts, pos, 1, &npos, help_text, &help)) return EXIT_USAGE;
  if (help) return EXIT_OK;
  prof_request rq;
  if (cli_prof_request(&rq, "profile", &a, npos, pos[0])) return EXIT_USAGE;
  ws_profile *p = NULL;
  ws_gpu *g = NULL;
  int rc = cli_profile_run(&rq, &p, &g, NULL);
  if (rc) return rc;
  char *json = ws_profile_to_json(p);
  if (!json) {
    fprintf(stderr, "warpsight profile: error: out of memory\n");
    rc = EXIT_USAGE;
  } else if (outp) {
    rc = cli_write_text(outp, json, 1);
  } else {
    puts(json);
  }
  free(json);
  ws_profile_free(p);
  ws_gpu_free(g);
  return rc;
}
