/*
 * cmd_analyze.c — `warpsight analyze FILE.ptx|FILE.cu`: static analysis of
 * each kernel (parameters, registers, shared/local bytes, basic blocks,
 * loops, per-block instruction classes, ILP and MLP), as text or JSON.
 * A .cu file is compiled with `nvcc -ptx` first, and `ptxas -v` adds the
 * register, shared, stack and spill figures of the real compiler.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "warpsight/analysis.h"
#include "warpsight/ptx.h"

static const char *const help =
    "usage: warpsight analyze FILE.ptx|FILE.cu [--arch sm_XX] [--kernel K] [--json]\n"
    "\n"
    "Static analysis of the kernels in a PTX file (or of a CUDA file, compiled\n"
    "with nvcc -ptx): parameters, declared registers, static shared and local\n"
    "bytes, basic blocks with PTX line ranges, instruction classes, successors,\n"
    "loop depth, natural loops, and per-block static ILP and MLP (Sim et al.,\n"
    "PPoPP'12, Sec. 5.3; rules in docs/static-analysis.md).\n"
    "\n"
    "options:\n"
    "  --arch sm_XX   target for nvcc/ptxas when FILE is .cu (default sm_80)\n"
    "  --kernel K     only the function named K (an entry or a .func)\n"
    "  --json         machine-readable output\n"
    "  -h, --help     this text\n"
    "\n"
    "For .cu input nvcc must be in PATH, $CUDA_HOME/bin or /usr/local/cuda/bin\n"
    "(when CUDA_HOME is unset); ptxas -v, found the same way, then\n"
    "adds registers, shared, stack (local) and spill bytes per kernel.\n"
    "Exit status: 0 success, 2 bad usage or input (errors as file:line:col).\n";

/* ptxas -v figures for one function. */
typedef struct ptxas_info {
  char name[512];     /* function name */
  long regs;          /* registers per thread, -1 if not reported */
  long smem;          /* static shared bytes */
  long stack;         /* stack frame (local) bytes */
  long spill_st;      /* spill store bytes */
  long spill_ld;      /* spill load bytes */
} ptxas_info;

typedef struct ptxas_list {
  ptxas_info *v;
  size_t n;
} ptxas_list;

static const char *find_tool(const char *name, char *buf, size_t n) {
  const char *path = getenv("PATH");
  while (path && *path) {
    const char *colon = strchr(path, ':');
    size_t len = colon ? (size_t)(colon - path) : strlen(path);
    if (len > 0 && len + strlen(name) + 2 < n) {
      snprintf(buf, n, "%.*s/%s", (int)len, path, name);
      if (access(buf, X_OK) == 0) return buf;
    }
    path = colon ? colon + 1 : NULL;
  }
  /* then $CUDA_HOME/bin, or /usr/local/cuda/bin when CUDA_HOME is unset */
  const char *home = getenv("CUDA_HOME");
  snprintf(buf, n, "%s/bin/%s", home ? home : "/usr/local/cuda", name);
  if (access(buf, X_OK) == 0) return buf;
  return NULL;
}

/* Run argv with stdout and stderr into `log`; returns the exit status or -1. */
static int run_tool(char *const argv[], const char *log) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    execv(argv[0], argv);
    _exit(127);
  }
  int st;
  if (waitpid(pid, &st, 0) < 0) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void print_file(FILE *to, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[1024];
  while (fgets(line, sizeof line, f)) fputs(line, to);
  fclose(f);
}

static ptxas_info *ptxas_get(ptxas_list *l, const char *name) {
  for (size_t i = 0; i < l->n; i++)
    if (strcmp(l->v[i].name, name) == 0) return &l->v[i];
  ptxas_info *nv = realloc(l->v, (l->n + 1) * sizeof *nv);
  if (!nv) return NULL;
  l->v = nv;
  ptxas_info *p = &l->v[l->n++];
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "%s", name);
  p->regs = -1;
  return p;
}

/* Read `ptxas -v` output: "Function properties for F" / "N bytes stack
 * frame, S bytes spill stores, L bytes spill loads" / "Compiling entry
 * function 'F'" / "Used R registers, ..., X bytes smem, ...". */
static void parse_ptxas_log(const char *path, ptxas_list *l) {
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[2048];
  ptxas_info *cur = NULL;
  while (fgets(line, sizeof line, f)) {
    char *p;
    if ((p = strstr(line, "Function properties for "))) {
      p += strlen("Function properties for ");
      p[strcspn(p, "\r\n")] = '\0';
      cur = ptxas_get(l, p);
    } else if ((p = strstr(line, "Compiling entry function '"))) {
      p += strlen("Compiling entry function '");
      char *q = strchr(p, '\'');
      if (q) *q = '\0';
      cur = ptxas_get(l, p);
    } else if (cur && strstr(line, "bytes stack frame")) {
      long a = 0, b = 0, c = 0;
      if (sscanf(line, " %ld bytes stack frame, %ld bytes spill stores, %ld bytes spill loads",
                 &a, &b, &c) == 3) {
        cur->stack = a;
        cur->spill_st = b;
        cur->spill_ld = c;
      }
    } else if (cur && (p = strstr(line, "Used "))) {
      long r;
      if (sscanf(p, "Used %ld registers", &r) == 1) cur->regs = r;
      char *s = strstr(p, " bytes smem");
      if (s) {
        char *b = s;
        while (b > p && b[-1] >= '0' && b[-1] <= '9') b--;
        cur->smem = strtol(b, NULL, 10);
      }
    }
  }
  fclose(f);
}

static int has_suffix(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && strcmp(s + n - m, suf) == 0;
}

static void rm_tree(const char *dir) {
  static const char *const names[] = {"in.ptx", "out.cubin", "nvcc.log", "ptxas.log"};
  char p[4096];
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    snprintf(p, sizeof p, "%s/%s", dir, names[i]);
    unlink(p);
  }
  rmdir(dir);
}

/* Compile .cu to PTX in a temp folder; returns 0 or EXIT_USAGE. */
static int compile_cu(const char *file, const char *arch, char *dir, size_t dirn,
                      ptxas_list *pl, int *have_ptxas) {
  char nvcc[4096], ptxas[4096];
  if (!find_tool("nvcc", nvcc, sizeof nvcc))
    return cli_usage_error("analyze",
                           "nvcc not found (looked in PATH and $CUDA_HOME/bin or /usr/local/cuda/bin); "
                           "compile the kernel to PTX yourself (nvcc -ptx -arch=%s %s) "
                           "and pass the .ptx file",
                           arch, file);
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, dirn, "%s/warpsight-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    fprintf(stderr, "warpsight analyze: error: cannot create a temporary folder: %s\n",
            strerror(errno));
    return EXIT_USAGE;
  }
  char out[4200], log[4200], archopt[64];
  snprintf(out, sizeof out, "%s/in.ptx", dir);
  snprintf(log, sizeof log, "%s/nvcc.log", dir);
  snprintf(archopt, sizeof archopt, "-arch=%s", arch);
  char *argv1[] = {nvcc, "-ptx", archopt, (char *)file, "-o", out, NULL};
  int st = run_tool(argv1, log);
  if (st != 0) {
    fprintf(stderr, "warpsight analyze: error: nvcc failed on %s (status %d):\n", file, st);
    print_file(stderr, log);
    return EXIT_USAGE;
  }
  *have_ptxas = 0;
  if (find_tool("ptxas", ptxas, sizeof ptxas)) {
    char cubin[4200], plog[4200];
    snprintf(cubin, sizeof cubin, "%s/out.cubin", dir);
    snprintf(plog, sizeof plog, "%s/ptxas.log", dir);
    char *argv2[] = {ptxas, "-v", archopt, out, "-o", cubin, NULL};
    if (run_tool(argv2, plog) == 0) {
      parse_ptxas_log(plog, pl);
      *have_ptxas = 1;
    }
  }
  return 0;
}

/* Bytes of shared memory a function declares, plus module .shared
 * variables it names directly. */
static uint64_t shared_bytes(const ws_ptx_module *m, const ws_ptx_function *f) {
  uint64_t total = 0;
  for (uint32_t i = 0; i < f->nvars; i++)
    if (f->vars[i].space == WS_PTX_SP_SHARED) total += f->vars[i].size;
  uint8_t *used = calloc(m->nvars + 1, 1);
  if (!used) return total;
  for (uint32_t i = 0; i < f->ninsts; i++)
    for (int k = 0; k < f->insts[i].nops; k++) {
      const ws_ptx_operand *o = &f->insts[i].ops[k];
      if ((o->kind == WS_PTX_O_SYM || o->kind == WS_PTX_O_ADDR) && o->symkind == WS_PTX_S_GLOBAL &&
          o->reg < m->nvars)
        used[o->reg] = 1;
    }
  for (uint32_t i = 0; i < m->nvars; i++)
    if (used[i] && m->vars[i].space == WS_PTX_SP_SHARED) total += m->vars[i].size;
  free(used);
  return total;
}

static uint64_t local_bytes(const ws_ptx_function *f) {
  uint64_t total = 0;
  for (uint32_t i = 0; i < f->nvars; i++)
    if (f->vars[i].space == WS_PTX_SP_LOCAL) total += f->vars[i].size;
  return total;
}

static void type_text(char *buf, size_t n, const ws_ptx_var *v) {
  if (v->ndims)
    snprintf(buf, n, "%s.%s[%llu]", v->vec > 1 ? (v->vec == 2 ? ".v2" : ".v4") : "",
             ws_ptx_type_name((ws_ptx_type)v->type), (unsigned long long)v->dims[0]);
  else
    snprintf(buf, n, "%s.%s", v->vec > 1 ? (v->vec == 2 ? ".v2" : ".v4") : "",
             ws_ptx_type_name((ws_ptx_type)v->type));
}

static void print_text(const ws_ptx_module *m, const ws_ptx_function *f, const ws_cfg *c,
                       const ptxas_info *pi) {
  printf("%s %s (line %u)\n", f->is_entry ? "kernel" : "function", f->name, f->line);
  printf("  parameters: %u (%llu bytes)\n", f->nparams, (unsigned long long)f->param_bytes);
  for (uint32_t i = 0; i < f->nparams; i++) {
    char t[64];
    type_text(t, sizeof t, &f->params[i]);
    printf("    %-32s %-12s offset %-4llu size %llu\n", f->params[i].name, t,
           (unsigned long long)f->params[i].offset, (unsigned long long)f->params[i].size);
  }
  uint32_t bytype[WS_PTX_T_COUNT] = {0};
  for (uint32_t i = 0; i < f->nregs; i++) bytype[f->regs[i].type]++;
  printf("  registers declared: %u (", f->nregs);
  int first = 1;
  for (int t = 1; t < WS_PTX_T_COUNT; t++)
    if (bytype[t]) {
      printf("%s%s %u", first ? "" : ", ", ws_ptx_type_name((ws_ptx_type)t), bytype[t]);
      first = 0;
    }
  printf(")\n");
  printf("  static shared bytes: %llu\n", (unsigned long long)shared_bytes(m, f));
  printf("  local bytes: %llu\n", (unsigned long long)local_bytes(f));
  if (pi)
    printf("  ptxas: %ld registers, %ld bytes shared, %ld bytes stack (local), "
           "%ld bytes spill stores, %ld bytes spill loads\n",
           pi->regs, pi->smem, pi->stack, pi->spill_st, pi->spill_ld);
  printf("  instructions: %u, basic blocks: %u, loops: %u\n", f->ninsts, c->nblocks, c->nloops);
  printf("  %-5s %-11s %5s %-9s %5s %5s %5s  %s\n", "block", "lines", "insts", "succ", "depth",
         "ILP", "MLP", "classes");
  for (uint32_t b = 0; b < c->nblocks; b++) {
    const ws_bb *bb = &c->blocks[b];
    char lines[32], succ[128];
    snprintf(lines, sizeof lines, "%u-%u", bb->line_first, bb->line_last);
    succ[0] = '\0';
    for (uint32_t k = 0; k < bb->nsucc; k++) {
      size_t len = strlen(succ);
      if (bb->succ[k] == c->nblocks)
        snprintf(succ + len, sizeof succ - len, "%sexit", k ? "," : "");
      else
        snprintf(succ + len, sizeof succ - len, "%s%u", k ? "," : "", bb->succ[k]);
    }
    printf("  %-5u %-11s %5u %-9s %5u %5.2f %5.2f ", b, lines, bb->end - bb->first, succ,
           bb->loop_depth, bb->ilp, bb->mlp);
    for (int k = 0; k < WS_IC_COUNT; k++)
      if (bb->counts[k]) printf(" %s=%u", ws_analysis_class_name((ws_iclass)k), bb->counts[k]);
    printf("\n");
  }
  for (uint32_t i = 0; i < c->nloops; i++) {
    const ws_loop *L = &c->loops[i];
    printf("  loop %u: header block %u (line %u), depth %u, parent %s", i, L->header,
           c->blocks[L->header].line_first, L->depth, L->parent == WS_CFG_NONE ? "none" : "");
    if (L->parent != WS_CFG_NONE) printf("%u", L->parent);
    printf(", blocks");
    for (uint32_t k = 0; k < L->nblocks; k++) printf(" %u", L->blocks[k]);
    printf("\n");
  }
}

static cJSON *json_function(const ws_ptx_module *m, const ws_ptx_function *f, const ws_cfg *c,
                            const ptxas_info *pi) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", f->name);
  cJSON_AddBoolToObject(o, "entry", f->is_entry);
  cJSON_AddNumberToObject(o, "line", f->line);
  cJSON *ps = cJSON_AddArrayToObject(o, "params");
  for (uint32_t i = 0; i < f->nparams; i++) {
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "name", f->params[i].name);
    cJSON_AddStringToObject(p, "type", ws_ptx_type_name((ws_ptx_type)f->params[i].type));
    cJSON_AddNumberToObject(p, "offset", (double)f->params[i].offset);
    cJSON_AddNumberToObject(p, "size", (double)f->params[i].size);
    cJSON_AddNumberToObject(p, "align", f->params[i].align);
    if (f->params[i].is_ptr)
      cJSON_AddStringToObject(p, "ptr_space",
                              f->params[i].ptr_space
                                  ? ws_ptx_space_name((ws_ptx_space)f->params[i].ptr_space)
                                  : "generic");
    cJSON_AddItemToArray(ps, p);
  }
  cJSON_AddNumberToObject(o, "param_bytes", (double)f->param_bytes);
  cJSON *regs = cJSON_AddObjectToObject(o, "registers");
  cJSON_AddNumberToObject(regs, "declared", f->nregs);
  uint32_t bytype[WS_PTX_T_COUNT] = {0};
  for (uint32_t i = 0; i < f->nregs; i++) bytype[f->regs[i].type]++;
  cJSON *bt = cJSON_AddObjectToObject(regs, "by_type");
  for (int t = 1; t < WS_PTX_T_COUNT; t++)
    if (bytype[t]) cJSON_AddNumberToObject(bt, ws_ptx_type_name((ws_ptx_type)t), bytype[t]);
  cJSON_AddNumberToObject(o, "shared_bytes", (double)shared_bytes(m, f));
  cJSON_AddNumberToObject(o, "local_bytes", (double)local_bytes(f));
  if (pi) {
    cJSON *p = cJSON_AddObjectToObject(o, "ptxas");
    cJSON_AddNumberToObject(p, "registers", (double)pi->regs);
    cJSON_AddNumberToObject(p, "shared_bytes", (double)pi->smem);
    cJSON_AddNumberToObject(p, "stack_bytes", (double)pi->stack);
    cJSON_AddNumberToObject(p, "spill_store_bytes", (double)pi->spill_st);
    cJSON_AddNumberToObject(p, "spill_load_bytes", (double)pi->spill_ld);
  }
  cJSON_AddNumberToObject(o, "instructions", f->ninsts);
  cJSON *bs = cJSON_AddArrayToObject(o, "blocks");
  for (uint32_t b = 0; b < c->nblocks; b++) {
    const ws_bb *bb = &c->blocks[b];
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "id", b);
    cJSON *lines = cJSON_AddArrayToObject(j, "lines");
    cJSON_AddItemToArray(lines, cJSON_CreateNumber(bb->line_first));
    cJSON_AddItemToArray(lines, cJSON_CreateNumber(bb->line_last));
    cJSON_AddNumberToObject(j, "instructions", bb->end - bb->first);
    cJSON *cnt = cJSON_AddObjectToObject(j, "counts");
    for (int k = 0; k < WS_IC_COUNT; k++)
      if (bb->counts[k])
        cJSON_AddNumberToObject(cnt, ws_analysis_class_name((ws_iclass)k), bb->counts[k]);
    cJSON *su = cJSON_AddArrayToObject(j, "successors");
    for (uint32_t k = 0; k < bb->nsucc; k++)
      cJSON_AddItemToArray(su, bb->succ[k] == c->nblocks ? cJSON_CreateString("exit")
                                                         : cJSON_CreateNumber(bb->succ[k]));
    if (bb->idom == WS_CFG_NONE) cJSON_AddNullToObject(j, "idom");
    else cJSON_AddNumberToObject(j, "idom", bb->idom);
    if (bb->ipdom == c->nblocks) cJSON_AddStringToObject(j, "ipdom", "exit");
    else cJSON_AddNumberToObject(j, "ipdom", bb->ipdom);
    cJSON_AddNumberToObject(j, "loop_depth", bb->loop_depth);
    cJSON_AddNumberToObject(j, "ilp", bb->ilp);
    cJSON_AddNumberToObject(j, "mlp", bb->mlp);
    cJSON_AddNumberToObject(j, "loads", bb->nloads);
    cJSON_AddItemToArray(bs, j);
  }
  cJSON *ls = cJSON_AddArrayToObject(o, "loops");
  for (uint32_t i = 0; i < c->nloops; i++) {
    const ws_loop *L = &c->loops[i];
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "header", L->header);
    cJSON_AddNumberToObject(j, "depth", L->depth);
    if (L->parent == WS_CFG_NONE) cJSON_AddNullToObject(j, "parent");
    else cJSON_AddNumberToObject(j, "parent", L->parent);
    cJSON *blk = cJSON_AddArrayToObject(j, "blocks");
    for (uint32_t k = 0; k < L->nblocks; k++)
      cJSON_AddItemToArray(blk, cJSON_CreateNumber(L->blocks[k]));
    cJSON_AddItemToArray(ls, j);
  }
  return o;
}

int cmd_analyze(int argc, char **argv) {
  const char *arch = NULL, *kernel = NULL, *json = NULL;
  const cli_opt opts[] = {{"--arch", 1, &arch}, {"--kernel", 1, &kernel}, {"--json", 0, &json},
                          {NULL, 0, NULL}};
  const char *pos[1];
  int npos, want_help;
  int r = cli_parse("analyze", argc, argv, opts, pos, 1, &npos, help, &want_help);
  if (r || want_help) return r;
  if (npos != 1) return cli_usage_error("analyze", "expected one FILE.ptx or FILE.cu");
  const char *file = pos[0];
  if (arch && (strncmp(arch, "sm_", 3) != 0 || strlen(arch) < 5 || strlen(arch) > 16 ||
               strspn(arch + 3, "0123456789af") != strlen(arch + 3)))
    return cli_usage_error("analyze", "--arch expects sm_XX (like sm_80), got '%s'", arch);
  if (!arch) arch = "sm_80";

  char dir[4096] = "";
  ptxas_list pl = {NULL, 0};
  int have_ptxas = 0;
  const char *ptx_path = file;
  char ptx_buf[4200];
  if (has_suffix(file, ".cu")) {
    if (access(file, R_OK) != 0) {
      fprintf(stderr, "warpsight analyze: error: cannot read %s: %s\n", file, strerror(errno));
      return EXIT_USAGE;
    }
    r = compile_cu(file, arch, dir, sizeof dir, &pl, &have_ptxas);
    if (r) {
      if (dir[0]) rm_tree(dir);
      free(pl.v);
      return r;
    }
    snprintf(ptx_buf, sizeof ptx_buf, "%s/in.ptx", dir);
    ptx_path = ptx_buf;
  }
  ws_diag d = WS_DIAG_INIT;
  ws_ptx_module *m = NULL;
  char *src = NULL;
  size_t len = 0;
  r = ws_read_file(&src, &len, ptx_path, &d);
  char label[4200];
  snprintf(label, sizeof label, "%s%s", file, ptx_path == file ? "" : " (nvcc -ptx output)");
  if (!r) r = ws_ptx_parse(&m, src, len, label, &d);
  free(src);
  if (dir[0]) rm_tree(dir);
  if (r) {
    cli_print_diag(&d);
    ws_diag_free(&d);
    free(pl.v);
    return cli_exit_for(r);
  }
  /* which functions */
  int nsel = 0;
  for (uint32_t i = 0; i < m->nfuncs; i++) {
    const ws_ptx_function *f = &m->funcs[i];
    if (!f->has_body) continue;
    if (kernel ? strcmp(f->name, kernel) == 0 : f->is_entry) nsel++;
  }
  if (kernel && nsel == 0) {
    fprintf(stderr, "warpsight analyze: error: no function named '%s' in %s; kernels:", kernel,
            file);
    for (uint32_t i = 0; i < m->nfuncs; i++)
      if (m->funcs[i].is_entry && m->funcs[i].has_body) fprintf(stderr, " %s", m->funcs[i].name);
    fprintf(stderr, "\n");
    ws_ptx_module_free(m);
    ws_diag_free(&d);
    free(pl.v);
    return EXIT_USAGE;
  }
  cJSON *root = NULL, *arr = NULL;
  if (json) {
    root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "file", file);
    cJSON_AddStringToObject(root, "target", m->target ? m->target : "");
    char ver[32];
    snprintf(ver, sizeof ver, "%u.%u", m->version_major, m->version_minor);
    cJSON_AddStringToObject(root, "ptx_version", ver);
    arr = cJSON_AddArrayToObject(root, "kernels");
  } else {
    printf("%s: PTX %u.%u, target %s, %u-bit addresses\n", file, m->version_major,
           m->version_minor, m->target ? m->target : "?", m->address_size);
  }
  int status = EXIT_OK;
  for (uint32_t i = 0; i < m->nfuncs; i++) {
    const ws_ptx_function *f = &m->funcs[i];
    if (!f->has_body || !(kernel ? strcmp(f->name, kernel) == 0 : f->is_entry)) continue;
    ws_cfg *c = NULL;
    r = ws_analysis_build(&c, m, f, &d);
    if (r) {
      cli_print_diag(&d);
      status = cli_exit_for(r);
      break;
    }
    const ptxas_info *pi = NULL;
    if (have_ptxas)
      for (size_t k = 0; k < pl.n; k++)
        if (strcmp(pl.v[k].name, f->name) == 0) pi = &pl.v[k];
    if (json) cJSON_AddItemToArray(arr, json_function(m, f, c, pi));
    else {
      printf("\n");
      print_text(m, f, c, pi);
    }
    ws_analysis_free(c);
  }
  if (json && status == EXIT_OK) {
    char *s = cJSON_Print(root);
    if (s) puts(s);
    free(s);
  }
  cJSON_Delete(root);
  ws_ptx_module_free(m);
  ws_diag_free(&d);
  free(pl.v);
  return status;
}
