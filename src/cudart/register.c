/*
 * register.c — start-up and launch as nvcc 13's generated host code does
 * them (docs/exec.md, "How a program starts"): one __cudaRegisterFatBinary
 * per .cu file, then its functions and variables, then
 * __cudaRegisterFatBinaryEnd; per launch __cudaPushCallConfiguration,
 * __cudaGetKernel (first launch only), __cudaPopCallConfiguration and
 * __cudaLaunchKernel, whose result the generated code discards (so errors
 * surface through cudaGetLastError).
 */
#define _GNU_SOURCE /* program_invocation_short_name */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/exports.h"
#include "cudart/fatbin.h"
#include "cudart/rt.h"
#include "util/strbuf.h"
#include "util/vec.h"

/* The call-configuration stack of a host thread (<<<>>> nests through
 * argument evaluation, so a stack, not one slot). */
#define CONFIG_DEPTH 16
typedef struct call_config {
  dim3 grid, block;     /* launch geometry */
  size_t shared;        /* dynamic shared bytes */
  cudaStream_t stream;  /* stream */
} call_config;
static _Thread_local call_config config_stack[CONFIG_DEPTH];
static _Thread_local int config_depth;

void **__cudaRegisterFatBinary(void *fatCubin) {
  ws_rt *rt = rt_enter();
  void **cell = malloc(sizeof *cell);
  rt_module m = {0};
  m.handle = cell;
  m.wrapper = fatCubin;
  if (!cell || WS_VEC_PUSH(rt->modules, rt->nmodules, rt->cap_modules, m)) {
    fprintf(stderr, "warpsight: error: out of memory registering a fat binary\n");
    free(cell);
    rt_leave();
    exit(2);
  }
  *cell = fatCubin;
  rt_leave();
  return cell;
}

void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }

/* Modules stay until exit (rt.c frees them after the report): kernels may
 * still be reported after the program's atexit handlers ran. */
void __cudaUnregisterFatBinary(void **handle) { (void)handle; }

rt_module *rt_find_module(ws_rt *rt, void **handle) {
  for (size_t i = 0; i < rt->nmodules; i++)
    if (rt->modules[i].handle == handle) return &rt->modules[i];
  return NULL;
}

static void set_module_error(rt_module *m, ws_diag *d, const char *what) {
  char *s = ws_diag_format(d);
  ws_strbuf b = {0};
  ws_sb_printf(&b, "%s: %s", what, s ? s : "out of memory");
  free(s);
  m->error = ws_sb_take(&b);
}

/* Parse one PTX text of the program (named "PROG.fatbinI[.tuK].compute_A.ptx"
 * in messages), keeping any instruction the front end does not know: the
 * emulator refuses only a kernel that reaches one (docs/exec.md). */
static int parse_part(ws_ptx_module **out, const char *ptx, size_t i, long tu, int arch, ws_diag *d) {
  char origin[300], part[32] = "";
  if (tu >= 0) snprintf(part, sizeof part, ".tu%ld", tu);
  snprintf(origin, sizeof origin, "%.200s.fatbin%zu%s.compute_%d.ptx", program_invocation_short_name, i, part, arch);
  return ws_ptx_parse_opts(out, ptx, strlen(ptx), origin, WS_PTX_PARSE_KEEP_UNKNOWN, d);
}

/* A program built with -rdc=true: the wrapper (version 2) carries the
 * device-linked image and, NULL-terminated, the fat binaries of the
 * translation units, each with its own PTX: parsed one by one and linked
 * by symbol (ws_ptx_link), as nvlink linked the cubin. */
static void load_linked(rt_module *m, size_t i, int max_arch, ws_diag *d) {
  const void *const *pre = m->wrapper ? ((const ws_fatbin_wrapper *)m->wrapper)->filename_or_fatbins : NULL;
  size_t n = 0;
  while (pre && pre[n] && n < RT_MAX_TUS) n++;
  if (!n) {
    ws_diag_error(d, "fat-binary wrapper version 2 (-rdc=true) without the translation units' fat binaries");
    return;
  }
  if (pre[n]) {
    ws_diag_error(d, "a program of more than %d translation units built with -rdc=true", RT_MAX_TUS);
    return;
  }
  m->parts = calloc(n, sizeof *m->parts);
  m->part_ptx = calloc(n, sizeof *m->part_ptx);
  if (!m->parts || !m->part_ptx) {
    ws_diag_error(d, "out of memory reading the program's device code");
    return;
  }
  m->nparts = n;
  for (size_t k = 0; k < n; k++) {
    int arch = 0;
    if (ws_fatbin_ptx(&m->part_ptx[k], &arch, pre[k], ws_fatbin_size(pre[k]), max_arch, d) ||
        parse_part(&m->parts[k], m->part_ptx[k], i, (long)k, arch, d))
      return;
    if (!m->arch || arch < m->arch) m->arch = arch;
  }
  char path[300];
  snprintf(path, sizeof path, "%.200s.fatbin%zu.linked.compute_%d.ptx", program_invocation_short_name, i, m->arch);
  ws_ptx_link(&m->m, m->parts, n, path, d);
}

/* Decompress and parse a module's PTX once; NULL (and m->error) on failure. */
const ws_ptx_module *rt_module_ptx(ws_rt *rt, size_t i) {
  rt_module *m = &rt->modules[i];
  if (m->tried) return m->m;
  m->tried = 1;
  const ws_fatbin_wrapper *w = m->wrapper;
  ws_diag d = WS_DIAG_INIT;
  int max_arch = rt->gpu ? rt->gpu->cc_major * 10 + rt->gpu->cc_minor : 1000;
  if (!w || w->magic != WS_FATBINC_MAGIC) {
    ws_diag_error(&d, "fat-binary wrapper with magic 0x%08x (expected 0x%08x)", w ? (unsigned)w->magic : 0u,
                  (unsigned)WS_FATBINC_MAGIC);
  } else if (w->version == 2) {
    load_linked(m, i, max_arch, &d);
  } else if (w->version != 1) {
    ws_diag_error(&d, "fat-binary wrapper version %d (1, or 2 for a program built with -rdc=true)", w->version);
  } else if (!ws_fatbin_ptx(&m->ptx, &m->arch, w->data, ws_fatbin_size(w->data), max_arch, &d)) {
    parse_part(&m->m, m->ptx, i, -1, m->arch, &d);
  }
  if (!m->m) set_module_error(m, &d, "cannot use the program's device code");
  ws_diag_free(&d);
  return m->m;
}

void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize) {
  (void)deviceName, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
  ws_rt *rt = rt_enter();
  rt_module *m = rt_find_module(rt, handle);
  rt_func f = {0};
  f.max_dyn_shared = f.static_shared = -1;
  f.host_fun = hostFun;
  f.name = ws_strdup(deviceFun);
  f.module = m ? (size_t)(m - rt->modules) : 0;
  if (!m || !f.name || WS_VEC_PUSH(rt->funcs, rt->nfuncs, rt->cap_funcs, f)) {
    fprintf(stderr, "warpsight: error: cannot register kernel '%s'\n", deviceFun);
    free(f.name);
  }
  rt_leave();
}

static void add_var(void **handle, const void *host_var, void **managed, const char *name,
                    size_t size, int constant) {
  ws_rt *rt = rt_enter();
  rt_module *m = rt_find_module(rt, handle);
  rt_var v = {0};
  v.host_var = host_var;
  v.managed_ptr = managed;
  v.name = ws_strdup(name);
  v.module = m ? (size_t)(m - rt->modules) : 0;
  v.size = size;
  v.constant = constant;
  if (!m || !v.name || WS_VEC_PUSH(rt->vars, rt->nvars, rt->cap_vars, v)) {
    fprintf(stderr, "warpsight: error: cannot register variable '%s'\n", name);
    free(v.name);
  }
  rt_leave();
}

void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName,
                       int ext, size_t size, int constant, int global) {
  (void)deviceName, (void)ext, (void)global;
  add_var(handle, hostVar, NULL, deviceAddress, size, constant);
}

void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant,
                              int global) {
  (void)deviceName, (void)ext, (void)global;
  add_var(handle, hostVarPtrAddress, hostVarPtrAddress, deviceAddress, size, constant);
}

/* Called before the first host access to a __managed__ variable: give each
 * of the module's managed variables its address (a host mirror of the
 * device variable, mem.c).  Non-zero: done (else it is called again). */
char __cudaInitModule(void **handle) {
  ws_rt *rt = rt_enter();
  rt_module *m = rt_find_module(rt, handle);
  char ok = 1;
  for (size_t i = 0; m && i < rt->nvars; i++) {
    rt_var *v = &rt->vars[i];
    if (v->module != (size_t)(m - rt->modules) || !v->managed_ptr || *v->managed_ptr) continue;
    uint64_t addr, bytes;
    if (rt_var_addr(rt, v, &addr, &bytes) || rt_mirror_add(rt, addr, NULL, bytes, RT_MIRROR_VAR)) {
      fprintf(stderr, "warpsight: error: cannot place __managed__ variable '%s'\n", v->name);
      ok = 0;
      continue;
    }
    *v->managed_ptr = (void *)(uintptr_t)addr;
  }
  rt_leave();
  if (!ok) exit(2); /* the program would dereference NULL */
  return 1;
}

rt_func *rt_find_func(ws_rt *rt, const void *host_fun) {
  for (size_t i = 0; i < rt->nfuncs; i++)
    if (rt->funcs[i].host_fun == host_fun) return &rt->funcs[i];
  return NULL;
}

rt_var *rt_find_var(ws_rt *rt, const void *host_var) {
  for (size_t i = 0; i < rt->nvars; i++)
    if (rt->vars[i].host_var == host_var) return &rt->vars[i];
  return NULL;
}

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                     cudaStream_t stream) {
  if (config_depth == CONFIG_DEPTH) return 1; /* the call is skipped */
  config_stack[config_depth++] = (call_config){gridDim, blockDim, sharedMem, stream};
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                       void *stream) {
  if (config_depth == 0) return rt_error(cudaErrorMissingConfiguration);
  call_config c = config_stack[--config_depth];
  *gridDim = c.grid, *blockDim = c.block, *sharedMem = c.shared;
  *(cudaStream_t *)stream = c.stream;
  return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun) {
  if (!kernel) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt->unloading ? cudaErrorCudartUnloading : cudaSuccess;
  if (!e && !rt_find_func(rt, hostFun)) e = cudaErrorInvalidDeviceFunction;
  if (!e) *kernel = (cudaKernel_t)(uintptr_t)hostFun; /* the handle is the host stub */
  return rt_done(e);
}

cudaError_t cudaGetKernel(cudaKernel_t *kernel, const void *entryFuncAddr) {
  return __cudaGetKernel(kernel, entryFuncAddr);
}

/* cudaFunction_t handles are the host stubs too. */
cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr) {
  cudaKernel_t k;
  cudaError_t e = functionPtr ? __cudaGetKernel(&k, symbolPtr) : rt_error(cudaErrorInvalidValue);
  if (!e) *functionPtr = (cudaFunction_t)k;
  return e;
}

cudaError_t cudaFuncGetName(const char **name, const void *func) {
  if (!name) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_func *f = e ? NULL : rt_find_func(rt, func);
  if (!e && !f) e = cudaErrorInvalidDeviceFunction;
  if (!e) *name = f->name; /* lives until exit, as CUDA's does */
  return rt_done(e);
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                               size_t sharedMem, cudaStream_t stream) {
  return cudaLaunchKernel((const void *)kernel, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                    void **args, size_t sharedMem, cudaStream_t stream) {
  return cudaLaunchKernel((const void *)kernel, gridDim, blockDim, args, sharedMem, stream);
}
