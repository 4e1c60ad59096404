/* cmd_run.c — `warpsight run`: run a kernel in the functional emulator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/kernel_name.h"
#include "cli/launch_check.h"
#include "cli/toolchain.h"
#include "util/strbuf.h"
#include "warpsight/emu.h"
#include "warpsight/ptx.h"

static const char help_text[] =
    "usage: warpsight run FILE.ptx|FILE.cu --launch L.json [--kernel K] [--out DIR] [-j N]\n"
    "                     [--max-warp-insts N] [--max-launch-insts N] [--max-memory N]\n"
    "                     [--arch sm_XX] [--engine auto|interp|jit]\n\n"
    "Runs a kernel of FILE.ptx in the functional PTX emulator with the grid, block\n"
    "and arguments of launch spec L.json (docs/launch-spec.md), writes every buffer\n"
    "marked \"output\" into DIR (default: the current folder) as a raw little-endian\n"
    "array, and prints a summary line: blocks, warps, warp instructions, seconds.\n"
    "Device printf output goes to stdout, in block order.\n\n"
    "  --kernel K            the kernel of the module to run, whatever the spec's\n"
    "                        \"kernel\" names (default: the spec's; its arguments must\n"
    "                        fit K); a C++ kernel by its mangled or demangled name\n"
    "  --launch L.json       launch spec (required)\n"
    "  --out DIR             folder for output files (must exist)\n"
    "  -j N                  worker threads (default: the number of cores)\n"
    CLI_LIMIT_OPTIONS_HELP
    "  --arch sm_XX          for FILE.cu: the nvcc -ptx target (default sm_80); a .cu\n"
    "                        file is compiled with nvcc -ptx first, as predict does;\n"
    "                        refused with PTX, which runs for its own .target\n"
    CLI_ENGINE_OPTION_HELP "\n"
    "Exit status: 0 ok, 1 the kernel faulted (out-of-bounds or misaligned access,\n"
    "barrier deadlock, instruction limit, trap), 2 bad usage or input (including\n"
    "instructions the emulator does not implement).\n";

/* The module of FILE.ptx, or of FILE.cu through nvcc -ptx (into the
 * temporary folder dir, which the caller removes).  Returns 0, EXIT_USAGE
 * after printing why nvcc failed, or the exit status for a diagnostic in d. */
static int load_module(ws_ptx_module **m, const char *file, const char *arch, char *dir, size_t dirn,
                       ws_diag *d) {
  if (!cli_has_suffix(file, ".cu")) {
    int st = ws_ptx_parse_file(m, file, d);
    return cli_exit_code(st);
  }
  if (access(file, R_OK) != 0) {
    ws_diag_error(d, "cannot read %s", file);
    return cli_exit_code(WS_EIO);
  }
  ws_ptxas_list pl = WS_PTXAS_LIST_INIT;
  int have_ptxas = 0, rc = cli_compile_cu("run", file, arch ? arch : "sm_80", dir, dirn, &pl, &have_ptxas);
  ws_tool_ptxas_free(&pl);
  if (rc) return rc;
  char path[4200], label[4300];
  snprintf(path, sizeof path, "%s/in.ptx", dir);
  snprintf(label, sizeof label, "%s (nvcc -ptx output)", file);
  char *text = NULL;
  size_t len = 0;
  int st = ws_read_file(&text, &len, path, d);
  if (!st) st = ws_ptx_parse(m, text, len, label, d);
  free(text);
  return cli_exit_code(st);
}

int cmd_run(int argc, char **argv) {
  const char *kernel = NULL, *launch = NULL, *out = NULL, *jobs = NULL, *maxi = NULL, *maxl = NULL,
             *maxm = NULL, *arch = NULL, *engine = NULL;
  cli_opt opts[] = {{"--kernel", 1, &kernel},         {"--launch", 1, &launch},
                    {"--out", 1, &out},               {"-j", 1, &jobs},
                    {"--max-warp-insts", 1, &maxi},   {"--max-launch-insts", 1, &maxl},
                    {"--max-memory", 1, &maxm},       {"--arch", 1, &arch},
                    {"--engine", 1, &engine},         {NULL, 0, NULL}};
  const char *pos[1];
  int npos, help;
  if (cli_parse("run", argc, argv, opts, pos, 1, &npos, help_text, &help)) return EXIT_USAGE;
  if (help) return EXIT_OK;
  if (npos != 1) return cli_usage_error("run", "expected one FILE.ptx or FILE.cu (see --help)");
  if (cli_check_arch("run", arch, pos[0])) return EXIT_USAGE;
  if (!launch) return cli_usage_error("run", "--launch is required");
  long j = 0;
  unsigned long long mx = WS_EMU_DEFAULT_MAX_WARP_INSTS, ml = WS_EMU_DEFAULT_MAX_LAUNCH_INSTS, mm = 0;
  if (jobs && cli_parse_int("run", "-j", jobs, &j)) return EXIT_USAGE;
  if (cli_parse_limit("run", "--max-warp-insts", maxi, &mx) ||
      cli_parse_limit("run", "--max-launch-insts", maxl, &ml) ||
      cli_parse_bytes("run", "--max-memory", maxm, &mm))
    return EXIT_USAGE;
  if (jobs && (j < 1 || j > 256)) return cli_usage_error("run", "-j must be between 1 and 256");
  ws_emu_engine eng;
  if (cli_parse_engine("run", engine, &eng)) return EXIT_USAGE;

  ws_diag d = WS_DIAG_INIT;
  ws_launch_spec *spec = NULL;
  ws_ptx_module *m = NULL;
  ws_emu_program *p = NULL;
  ws_emu_launch *l = NULL;
  char dir[4096] = "";
  int st = ws_emu_launch_spec_load(&spec, launch, &d);
  if (!st) {
    int rc = load_module(&m, pos[0], arch, dir, sizeof dir, &d);
    if (rc) {
      cli_print_diag(&d);
      ws_emu_launch_spec_free(spec);
      ws_diag_free(&d);
      if (dir[0]) cli_rm_tmp(dir);
      return rc;
    }
  }
  const ws_ptx_function *kf = st ? NULL : cli_kernel_select(spec, m, kernel, &d);
  if (!st && !kf) st = WS_EINVAL;
  if (kf) cli_warn_unset_vars(m, kf, spec, &d);
  if (!st) st = ws_emu_load(&p, m, spec->kernel, &d);
  if (!st && mm) ws_emu_program_set_memory_budget(p, mm == ~0ull ? 0 : mm);
  ws_emu_jit *jit = NULL;
  if (!st) {
    uint64_t threads = (uint64_t)spec->grid[0] * spec->grid[1] * spec->grid[2] * spec->block[0] * spec->block[1] *
                       spec->block[2];
    st = cli_prepare_engine(&jit, p, eng, threads, &d);
  }
  if (!st) st = ws_emu_launch_new(&l, p, spec, &d);
  ws_emu_stats stats = {0};
  if (!st) {
    ws_emu_options o = WS_EMU_OPTIONS_INIT;
    o.threads = (int)j;
    o.max_warp_insts = (uint64_t)mx;
    o.max_launch_insts = (uint64_t)ml;
    o.printf_out = stdout;
    o.engine = (int)eng;
    st = ws_emu_run(l, &o, &stats, &d);
    fflush(stdout);
  }
  if (!st) st = ws_emu_write_outputs(l, out, &d);
  cli_print_diag(&d);
  if (!st)
    printf("%s: %llu blocks, %llu warps, %llu warp instructions, %.3f s (%d threads)\n", spec->kernel,
           (unsigned long long)stats.blocks, (unsigned long long)stats.warps,
           (unsigned long long)stats.warp_insts, stats.seconds, stats.threads);
  ws_emu_launch_free(l);
  ws_emu_program_free(p);
  ws_emu_jit_free(jit);
  ws_ptx_module_free(m);
  ws_emu_launch_spec_free(spec);
  ws_diag_free(&d);
  if (dir[0]) cli_rm_tmp(dir);
  return cli_exit_for(st);
}
