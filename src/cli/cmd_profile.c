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
  const char *kernel = NULL, *launch = NULL, *gpu = NULL, *outp = NULL, *sample = NULL,
             *frest = NULL, *jobs = NULL, *arch = NULL, *maxw = NULL, *maxl = NULL, *maxm = NULL;
  cli_opt opts[] = {{"--kernel", 1, &kernel},       {"--launch", 1, &launch},
                    {"--gpu", 1, &gpu},             {"-o", 1, &outp},
                    {"--sample-blocks", 1, &sample}, {"--functional-rest", 0, &frest},
                    {"-j", 1, &jobs},               {"--arch", 1, &arch},
                    {"--max-warp-insts", 1, &maxw}, {"--max-launch-insts", 1, &maxl},
                    {"--max-memory", 1, &maxm},
                    {NULL, 0, NULL}};
  const char *pos[1];
  int npos, help;
  if (cli_parse("profile", argc, argv, opts, pos, 1, &npos, help_text, &help)) return EXIT_USAGE;
  if (help) return EXIT_OK;
  if (npos != 1) return cli_usage_error("profile", "expected one FILE.ptx or FILE.cu (see --help)");
  if (!launch) return cli_usage_error("profile", "--launch is required");
  if (!gpu) gpu = PROF_DEFAULT_GPU;
  long ns = 0, j = 0;
  if (sample && cli_parse_int("profile", "--sample-blocks", sample, &ns)) return EXIT_USAGE;
  if (sample && ns < 1) return cli_usage_error("profile", "--sample-blocks must be at least 1");
  if (jobs && cli_parse_int("profile", "-j", jobs, &j)) return EXIT_USAGE;
  if (jobs && (j < 1 || j > 256)) return cli_usage_error("profile", "-j must be between 1 and 256");
  if (frest && !sample) return cli_usage_error("profile", "--functional-rest needs --sample-blocks");
  prof_request rq = {"profile", pos[0], kernel, launch, gpu, arch, ns, frest != NULL, j, 0, 0, 0, NULL, NULL};
  if (cli_prof_limits(&rq, maxw, maxl, maxm)) return EXIT_USAGE;
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
