/* main.c — the warpsight command: dispatch to one subcommand. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

typedef struct command {
  const char *name;                 /* subcommand */
  int (*fn)(int argc, char **argv); /* entry point */
  const char *summary;              /* one line for --help */
} command;

static const command commands[] = {
#define CMD(fn, name, summary) {name, fn, summary},
#include "cli/commands.def"
#undef CMD
    {NULL, NULL, NULL}};

static void usage(FILE *f) {
  fputs("usage: warpsight COMMAND [ARGS...]\n\n"
        "Predicts how long a CUDA kernel takes on an NVIDIA GPU, and why, with\n"
        "warpsight's own model (`--model warpsight`, the default primary model:\n"
        "dependency-path latency, SM pipes, L2 and DRAM bandwidth, atomics;\n"
        "docs/models/warpsight.md) and the analytical models of Hong & Kim, Sim\n"
        "et al. (GPUPerf), Kothapalli et al., Luo & Suda, Li et al. (Transit) and\n"
        "the Roofline.  Every command that predicts takes --gpu LIST|all and\n"
        "--model LIST|all.\n\ncommands:\n", f);
  for (size_t i = 0; commands[i].name; i++)
    fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
  fputs("\nRun 'warpsight COMMAND --help' for a command's options.\n"
        "Exit status: 0 success, 1 the emulated kernel faulted, 2 bad usage or input.\n", f);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return EXIT_USAGE;
  }
  if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
      strcmp(argv[1], "help") == 0) {
    usage(stdout);
    return EXIT_OK;
  }
  if (strcmp(argv[1], "--version") == 0) {
    puts("warpsight 0.1.0");
    return EXIT_OK;
  }
  for (size_t i = 0; commands[i].name; i++)
    if (strcmp(argv[1], commands[i].name) == 0)
      return commands[i].fn(argc - 1, argv + 1);
  fprintf(stderr, "warpsight: error: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return EXIT_USAGE;
}
