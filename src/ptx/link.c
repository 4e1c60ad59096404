/*
 * link.c — linking modules by symbol (ws_ptx_link): what nvlink does for a
 * program built with -rdc=true, at the level of the IR.
 *
 * Every module's variables and functions go into one module, in module
 * order.  A declaration (.extern variable, function without a body) that a
 * module defines is resolved to that definition: it is not copied, and
 * every reference to it (instruction operands, variable initialisers) names
 * the definition instead.  Internal symbols keep their module's meaning
 * even when names collide (each module's `$str` stays its own).  Two
 * definitions of one visible name are an error, unless one of them is
 * .weak or .common (the first strong one, else the first, wins).  A
 * declaration nobody defines stays one: the emulator refuses a kernel that
 * calls it, naming it.
 *
 * The linked module borrows what references no symbol from its inputs
 * (registers, labels, parameters, function-local variables, item lists):
 * keep the input modules alive as long as it.
 */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx_int.h"
#include "util/vec.h"
#include "warpsight/ptx.h"

/* A visible definition: its module and index there. */
typedef struct def {
  const char *name;
  uint32_t mod, idx;
  int weak;
} def;

/* Where each input symbol went: its index in the linked module. */
typedef struct lmap {
  uint32_t *var, *func; /* per input module, per symbol (offsets below) */
  size_t *var_base, *func_base;
} lmap;

static int is_var_decl(const ws_ptx_var *v) {
  /* an extern declaration: .extern, or an unsized .extern .shared (dynamic
   * shared memory: never resolved, each module keeps its own) */
  return (v->linkage & WS_PTX_L_EXTERN) && !(v->space == WS_PTX_SP_SHARED && v->unsized);
}

/* The definitions of every module: visible/weak/common variables that are
 * not declarations, functions with a body.  WS_EINVAL on a duplicate. */
static int collect(def **out, size_t *n, ws_ptx_module *const *mods, size_t nm, int funcs, ws_diag *d) {
  size_t cap = 0;
  for (size_t m = 0; m < nm; m++) {
    const ws_ptx_module *M = mods[m];
    uint32_t cnt = funcs ? M->nfuncs : M->nvars;
    for (uint32_t i = 0; i < cnt; i++) {
      const char *name;
      int link, weak;
      if (funcs) {
        const ws_ptx_function *f = &M->funcs[i];
        if (!f->has_body) continue;
        name = f->name, link = f->linkage;
      } else {
        const ws_ptx_var *v = &M->vars[i];
        if (is_var_decl(v)) continue;
        name = v->name, link = v->linkage;
      }
      if (!(link & (WS_PTX_L_VISIBLE | WS_PTX_L_WEAK | WS_PTX_L_COMMON))) continue; /* internal to its module */
      weak = (link & (WS_PTX_L_WEAK | WS_PTX_L_COMMON)) != 0;
      size_t k = 0;
      while (k < *n && strcmp((*out)[k].name, name) != 0) k++;
      if (k < *n) {
        def *o = &(*out)[k];
        if (!o->weak && !weak)
          return ws_diag_error(d, "multiple definitions of %s '%s' (in %s and %s)", funcs ? "function" : "variable",
                               name, mods[o->mod]->path, M->path);
        if (o->weak && !weak) *o = (def){name, (uint32_t)m, i, 0}; /* a strong one wins */
        continue;
      }
      if (WS_VEC_PUSH(*out, *n, cap, ((def){name, (uint32_t)m, i, weak}))) return WS_ENOMEM;
    }
  }
  return WS_OK;
}

static const def *find_def(const def *v, size_t n, const char *name) {
  for (size_t k = 0; k < n; k++)
    if (strcmp(v[k].name, name) == 0) return &v[k];
  return NULL;
}

/* An operand's module-level symbol, remapped for module m. */
static void remap_op(ws_ptx_operand *o, const lmap *L, size_t m) {
  if (o->kind != WS_PTX_O_SYM && o->kind != WS_PTX_O_ADDR) return;
  if (o->symkind == WS_PTX_S_GLOBAL) o->reg = L->var[L->var_base[m] + o->reg];
  else if (o->symkind == WS_PTX_S_FUNC) o->reg = L->func[L->func_base[m] + o->reg];
}

int ws_ptx_link(ws_ptx_module **out, ws_ptx_module *const *mods, size_t nm, const char *path, ws_diag *d) {
  *out = NULL;
  def *vdefs = NULL, *fdefs = NULL;
  size_t nvd = 0, nfd = 0;
  lmap L = {0};
  int st = collect(&vdefs, &nvd, mods, nm, 0, d);
  if (!st) st = collect(&fdefs, &nfd, mods, nm, 1, d);
  size_t tv = 0, tf = 0;
  L.var_base = calloc(nm + 1, sizeof *L.var_base);
  L.func_base = calloc(nm + 1, sizeof *L.func_base);
  if (!st && (!L.var_base || !L.func_base)) st = WS_ENOMEM;
  for (size_t m = 0; !st && m < nm; m++) {
    L.var_base[m] = tv;
    L.func_base[m] = tf;
    tv += mods[m]->nvars;
    tf += mods[m]->nfuncs;
  }
  L.var = calloc(tv + 1, sizeof *L.var);
  L.func = calloc(tf + 1, sizeof *L.func);
  ws_arena *A = ws_arena_new();
  ws_ptx_module *R = A ? ws_arena_alloc(A, sizeof *R) : NULL;
  if (!st && (!L.var || !L.func || !R)) st = WS_ENOMEM;
  /* pass 1: every symbol that stays gets its index; declarations a
   * module defines wait for pass 2 */
  uint32_t nv = 0, nf = 0;
  for (size_t m = 0; !st && m < nm; m++) {
    for (uint32_t i = 0; i < mods[m]->nvars; i++) {
      const ws_ptx_var *v = &mods[m]->vars[i];
      L.var[L.var_base[m] + i] = is_var_decl(v) && find_def(vdefs, nvd, v->name) ? UINT32_MAX : nv++;
    }
    for (uint32_t i = 0; i < mods[m]->nfuncs; i++) {
      const ws_ptx_function *f = &mods[m]->funcs[i];
      const def *df = find_def(fdefs, nfd, f->name);
      /* a declaration, or a second (weak) body of a defined name */
      int drop = df && (df->mod != m || df->idx != i) && (!f->has_body || (f->linkage & (WS_PTX_L_WEAK | WS_PTX_L_COMMON)));
      L.func[L.func_base[m] + i] = drop ? UINT32_MAX : nf++;
    }
  }
  /* pass 2: the dropped ones name their definitions */
  for (size_t m = 0; !st && m < nm; m++) {
    for (uint32_t i = 0; i < mods[m]->nvars; i++)
      if (L.var[L.var_base[m] + i] == UINT32_MAX) {
        const def *df = find_def(vdefs, nvd, mods[m]->vars[i].name);
        L.var[L.var_base[m] + i] = L.var[L.var_base[df->mod] + df->idx];
      }
    for (uint32_t i = 0; i < mods[m]->nfuncs; i++)
      if (L.func[L.func_base[m] + i] == UINT32_MAX) {
        const def *df = find_def(fdefs, nfd, mods[m]->funcs[i].name);
        L.func[L.func_base[m] + i] = L.func[L.func_base[df->mod] + df->idx];
      }
  }
  /* the module: symbols copied with their references remapped */
  ws_ptx_var *vars = nv ? ws_arena_alloc(A, nv * sizeof *vars) : NULL;
  ws_ptx_function *funcs = nf ? ws_arena_alloc(A, nf * sizeof *funcs) : NULL;
  if (!st && ((nv && !vars) || (nf && !funcs))) st = WS_ENOMEM;
  uint32_t nitems = 0;
  for (size_t m = 0; !st && m < nm; m++) nitems += mods[m]->nitems;
  ws_ptx_mitem *items = nitems ? ws_arena_alloc(A, nitems * sizeof *items) : NULL;
  if (!st && nitems && !items) st = WS_ENOMEM;
  nitems = 0;
  for (size_t m = 0; !st && m < nm; m++) {
    const ws_ptx_module *M = mods[m];
    for (uint32_t i = 0; i < M->nvars && !st; i++) {
      uint32_t to = L.var[L.var_base[m] + i];
      const ws_ptx_var *v = &M->vars[i];
      if (is_var_decl(v) && find_def(vdefs, nvd, v->name)) continue; /* resolved */
      vars[to] = *v;
      if (v->ninit) {
        ws_ptx_init *in = ws_arena_alloc(A, v->ninit * sizeof *in);
        if (!in) {
          st = WS_ENOMEM;
          break;
        }
        memcpy(in, v->init, v->ninit * sizeof *in);
        for (uint32_t k = 0; k < v->ninit; k++) {
          if (in[k].kind != WS_PTX_O_SYM) continue;
          if (in[k].symkind == WS_PTX_S_GLOBAL) in[k].sym = L.var[L.var_base[m] + in[k].sym];
          else if (in[k].symkind == WS_PTX_S_FUNC) in[k].sym = L.func[L.func_base[m] + in[k].sym];
        }
        vars[to].init = in;
      }
    }
    for (uint32_t i = 0; i < M->nfuncs && !st; i++) {
      uint32_t to = L.func[L.func_base[m] + i];
      const ws_ptx_function *f = &M->funcs[i];
      const def *df = find_def(fdefs, nfd, f->name);
      if (df && (df->mod != m || df->idx != i) && (!f->has_body || (f->linkage & (WS_PTX_L_WEAK | WS_PTX_L_COMMON))))
        continue; /* resolved to the definition */
      ws_ptx_function *g = &funcs[to];
      *g = *f;
      g->src = f->src ? f->src : M->path;
      ws_ptx_inst *ins = f->ninsts ? ws_arena_alloc(A, f->ninsts * sizeof *ins) : NULL;
      ws_ptx_operand *ex = f->nextra ? ws_arena_alloc(A, f->nextra * sizeof *ex) : NULL;
      if ((f->ninsts && !ins) || (f->nextra && !ex)) {
        st = WS_ENOMEM;
        break;
      }
      if (f->ninsts) memcpy(ins, f->insts, f->ninsts * sizeof *ins);
      if (f->nextra) memcpy(ex, f->extra, f->nextra * sizeof *ex);
      for (uint32_t k = 0; k < f->ninsts; k++)
        for (int o = 0; o < ins[k].nops; o++) remap_op(&ins[k].ops[o], &L, m);
      for (uint32_t k = 0; k < f->nextra; k++) remap_op(&ex[k], &L, m);
      g->insts = ins;
      g->extra = ex;
    }
    for (uint32_t i = 0; i < M->nitems; i++) {
      ws_ptx_mitem it = M->items[i];
      if (it.kind == WS_PTX_MI_VAR) {
        const ws_ptx_var *v = &M->vars[it.index];
        if (is_var_decl(v) && find_def(vdefs, nvd, v->name)) continue;
        it.index = L.var[L.var_base[m] + it.index];
      } else if (it.kind == WS_PTX_MI_FUNC) {
        uint32_t to = L.func[L.func_base[m] + it.index];
        const ws_ptx_function *f = &M->funcs[it.index];
        if (funcs[to].name != f->name) continue; /* resolved to another module's definition */
        it.index = to;
      } else if (it.kind == WS_PTX_MI_FILE) {
        continue; /* .file numbers are per module: the linked one has none */
      }
      items[nitems++] = it;
    }
  }
  if (!st) {
    R->arena = A;
    R->path = ws_arena_strndup(A, path ? path : "<linked>", strlen(path ? path : "<linked>"));
    R->version_major = mods[0]->version_major;
    R->version_minor = mods[0]->version_minor;
    R->target = mods[0]->target;
    R->target_extra = mods[0]->target_extra;
    R->address_size = mods[0]->address_size;
    for (size_t m = 0; m < nm; m++) {
      if (mods[m]->version_major > R->version_major ||
          (mods[m]->version_major == R->version_major && mods[m]->version_minor > R->version_minor))
        R->version_major = mods[m]->version_major, R->version_minor = mods[m]->version_minor;
      if (mods[m]->sm > R->sm) R->sm = mods[m]->sm, R->target = mods[m]->target;
    }
    R->nvars = nv;
    R->vars = vars;
    R->nfuncs = nf;
    R->funcs = funcs;
    R->nitems = nitems;
    R->items = items;
    if (!R->path) st = WS_ENOMEM;
  }
  free(vdefs);
  free(fdefs);
  free(L.var);
  free(L.func);
  free(L.var_base);
  free(L.func_base);
  if (st) {
    ws_arena_free(A);
    if (st == WS_ENOMEM) ws_diag_error(d, "out of memory linking %zu modules", nm);
    return st;
  }
  *out = R;
  return WS_OK;
}
