/*
 * print.c — the IR back to PTX text.
 *
 * The output is canonical rather than a copy of the input: one declaration
 * per line, alignments written only where they differ from the natural
 * one, immediates as decimal integers or 0f/0d bits.  It parses back to an
 * equal module, so print(parse(print(parse(x)))) == print(parse(x)).
 */
#include "warpsight/ptx.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct obuf {
  char *p;    /* text */
  size_t len; /* bytes used */
  size_t cap; /* bytes allocated */
  int oom;    /* an allocation failed */
} obuf;

static void put(obuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(obuf *b, const char *fmt, ...) {
  if (b->oom) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = b->cap - b->len;
    int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? room : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
      b->oom = 1;
      return;
    }
    if (b->p && (size_t)n < room) {
      b->len += (size_t)n;
      return;
    }
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + (size_t)n + 1) cap *= 2;
    char *np = realloc(b->p, cap);
    if (!np) {
      b->oom = 1;
      return;
    }
    b->p = np;
    b->cap = cap;
  }
}

static void puts_(obuf *b, const char *s) { put(b, "%s", s); }

const char *ws_ptx_reg_name(char *buf, size_t size, const ws_ptx_function *f, uint32_t r) {
  if (!f || r >= f->nregs) {
    snprintf(buf, size, "%%?%u", r);
  } else if (f->regs[r].num >= 0) {
    snprintf(buf, size, "%s%d", f->regs[r].name, f->regs[r].num);
  } else {
    snprintf(buf, size, "%s", f->regs[r].name);
  }
  return buf;
}

static const char *sym_name(const ws_ptx_module *m, const ws_ptx_function *f, int kind,
                            uint32_t i) {
  switch (kind) {
  case WS_PTX_S_GLOBAL: return i < m->nvars ? m->vars[i].name : "?";
  case WS_PTX_S_FUNC: return i < m->nfuncs ? m->funcs[i].name : "?";
  case WS_PTX_S_PARAM: return f && i < f->nparams ? f->params[i].name : "?";
  case WS_PTX_S_RET: return f && i < f->nrets ? f->rets[i].name : "?";
  case WS_PTX_S_LOCAL: return f && i < f->nvars ? f->vars[i].name : "?";
  case WS_PTX_S_PROTO: return f && i < f->nprotos ? f->protos[i].name : "?";
  case WS_PTX_S_BTABLE: return f && i < f->nbtables ? f->btables[i].name : "?";
  default: return "?";
  }
}

static void print_operand(obuf *b, const ws_ptx_module *m, const ws_ptx_function *f,
                          const ws_ptx_operand *o) {
  char nb[96];
  switch (o->kind) {
  case WS_PTX_O_REG:
    put(b, "%s%s%s", (o->flags & WS_PTX_OF_NOT) ? "!" : "", (o->flags & WS_PTX_OF_NEG) ? "-" : "",
        ws_ptx_reg_name(nb, sizeof nb, f, o->reg));
    break;
  case WS_PTX_O_SINK: puts_(b, "_"); break;
  case WS_PTX_O_IMM_INT:
    if (o->flags & WS_PTX_OF_HEX) put(b, "0x%" PRIX64, (uint64_t)o->imm);
    else put(b, "%" PRId64, o->imm);
    break;
  case WS_PTX_O_IMM_F32: put(b, "0f%08" PRIX32, (uint32_t)o->imm); break;
  case WS_PTX_O_IMM_F64: put(b, "0d%016" PRIX64, (uint64_t)o->imm); break;
  case WS_PTX_O_ADDR:
    if (o->symkind == WS_PTX_S_ABS) {
      put(b, "[%" PRId64 "]", o->imm);
      break;
    }
    put(b, "[%s", o->symkind == WS_PTX_S_NONE ? ws_ptx_reg_name(nb, sizeof nb, f, o->reg)
                                             : sym_name(m, f, o->symkind, o->reg));
    if (o->imm) put(b, "+%" PRId64, o->imm);
    puts_(b, "]");
    break;
  case WS_PTX_O_SYM:
    puts_(b, sym_name(m, f, o->symkind, o->reg));
    if (o->imm) put(b, "+%" PRId64, o->imm);
    break;
  case WS_PTX_O_LABEL:
    puts_(b, f && o->reg < f->nlabels ? f->labels[o->reg].name : "?");
    break;
  case WS_PTX_O_SREG:
    put(b, "%%%s", ws_ptx_sreg_name((ws_ptx_sreg)o->reg));
    if (o->comp) put(b, ".%c", "?xyzw"[o->comp]);
    break;
  case WS_PTX_O_VEC:
  case WS_PTX_O_LIST:
  case WS_PTX_O_TEXADDR:
    puts_(b, o->kind == WS_PTX_O_VEC ? "{" : o->kind == WS_PTX_O_LIST ? "(" : "[");
    for (uint32_t i = 0; i < o->comp; i++) {
      if (i) puts_(b, ", ");
      if (f && o->reg + i < f->nextra) print_operand(b, m, f, &f->extra[o->reg + i]);
    }
    puts_(b, o->kind == WS_PTX_O_VEC ? "}" : o->kind == WS_PTX_O_LIST ? ")" : "]");
    break;
  default: puts_(b, "?"); break;
  }
}

static void print_inst(obuf *b, const ws_ptx_module *m, const ws_ptx_function *f,
                       const ws_ptx_inst *in) {
  char nb[96];
  if (in->guard >= 0)
    put(b, "@%s%s ", in->guard_not ? "!" : "", ws_ptx_reg_name(nb, sizeof nb, f, (uint32_t)in->guard));
  puts_(b, ws_ptx_opcode_name((ws_ptx_opcode)in->op));
  int pre = in->ntypes ? in->mods_pre : in->nmods;
  for (int i = 0; i < pre; i++) put(b, ".%s", ws_ptx_mod_name((ws_ptx_mod)in->mods[i]));
  for (int i = 0; i < in->ntypes; i++) put(b, ".%s", ws_ptx_type_name((ws_ptx_type)in->type[i]));
  for (int i = pre; i < in->nmods; i++)
    put(b, ".%s", ws_ptx_mod_name((ws_ptx_mod)in->mods[i]));
  for (int k = 0; k < in->nops; k++) {
    const ws_ptx_operand *o = &in->ops[k];
    if (o->flags & WS_PTX_OF_PIPE) puts_(b, "|");
    else puts_(b, k ? ", " : " ");
    print_operand(b, m, f, o);
  }
  puts_(b, ";");
}

static uint32_t natural_align(const ws_ptx_var *v) {
  return (uint32_t)ws_ptx_type_size((ws_ptx_type)v->type) * v->vec;
}

static void print_init(obuf *b, const ws_ptx_module *m, const ws_ptx_var *v,
                       const ws_ptx_init *e) {
  int tk = ws_ptx_type_kind((ws_ptx_type)v->type);
  switch (e->kind) {
  case WS_PTX_O_IMM_INT:
    if (tk == WS_PTX_TK_S) put(b, "%" PRId64, e->value);
    else put(b, "%" PRIu64, (uint64_t)e->value);
    break;
  case WS_PTX_O_IMM_F32: put(b, "0f%08" PRIX32, (uint32_t)e->value); break;
  case WS_PTX_O_IMM_F64: put(b, "0d%016" PRIX64, (uint64_t)e->value); break;
  case WS_PTX_O_SYM: {
    const char *n = sym_name(m, NULL, e->symkind, e->sym);
    if (e->generic) put(b, "generic(%s)", n);
    else puts_(b, n);
    if (e->value) put(b, "+%" PRId64, e->value);
    break;
  }
  default: puts_(b, "0"); break;
  }
}

/* Nested braces for multi-dimensional arrays when the count matches. */
static void print_init_dims(obuf *b, const ws_ptx_module *m, const ws_ptx_var *v, int dim,
                            uint32_t *at) {
  if (dim < 0 || dim >= 4) return;
  uint64_t n = v->dims[dim];
  puts_(b, "{");
  for (uint64_t i = 0; i < n && *at < v->ninit; i++) {
    if (i) puts_(b, ", ");
    if (dim + 1 < v->ndims) {
      print_init_dims(b, m, v, dim + 1, at);
    } else {
      for (uint32_t k = 0; k < v->vec && *at < v->ninit; k++) {
        if (k) puts_(b, ", ");
        print_init(b, m, v, &v->init[(*at)++]);
      }
    }
  }
  puts_(b, "}");
}

static void print_var(obuf *b, const ws_ptx_module *m, const ws_ptx_var *v, int with_space) {
  if (v->linkage & WS_PTX_L_EXTERN) puts_(b, ".extern ");
  if (v->linkage & WS_PTX_L_VISIBLE) puts_(b, ".visible ");
  if (v->linkage & WS_PTX_L_WEAK) puts_(b, ".weak ");
  if (v->linkage & WS_PTX_L_COMMON) puts_(b, ".common ");
  if (with_space) put(b, ".%s ", ws_ptx_space_name((ws_ptx_space)v->space));
  if (v->managed) puts_(b, ".attribute(.managed) ");
  if (v->align != natural_align(v)) put(b, ".align %u ", v->align);
  if (v->vec > 1) put(b, ".v%u ", v->vec);
  put(b, ".%s", ws_ptx_type_name((ws_ptx_type)v->type));
  if (v->is_ptr) {
    puts_(b, " .ptr");
    if (v->ptr_space) put(b, " .%s", ws_ptx_space_name((ws_ptx_space)v->ptr_space));
    if (v->ptr_align) put(b, " .align %u", v->ptr_align);
  }
  put(b, " %s", v->name);
  for (int i = 0; i < v->ndims; i++) {
    if (v->unsized && i == v->ndims - 1) puts_(b, "[]");
    else put(b, "[%" PRIu64 "]", v->dims[i]);
  }
  if (v->ninit) {
    puts_(b, " = ");
    uint32_t at = 0;
    if (!v->init_braced) {
      print_init(b, m, v, &v->init[0]);
    } else if (v->ndims > 1) {
      uint64_t total = v->vec;
      for (int i = 0; i < v->ndims; i++) total *= v->dims[i];
      if (total == v->ninit) {
        print_init_dims(b, m, v, 0, &at);
      } else {
        puts_(b, "{");
        for (uint32_t i = 0; i < v->ninit; i++) {
          if (i) puts_(b, ", ");
          print_init(b, m, v, &v->init[i]);
        }
        puts_(b, "}");
      }
    } else {
      puts_(b, "{");
      for (uint32_t i = 0; i < v->ninit; i++) {
        if (i) puts_(b, ", ");
        print_init(b, m, v, &v->init[i]);
      }
      puts_(b, "}");
    }
  }
}

static void print_params(obuf *b, const ws_ptx_module *m, const ws_ptx_var *v, uint32_t n,
                         const char *sep) {
  for (uint32_t i = 0; i < n; i++) {
    put(b, "%s", i ? "," : "");
    puts_(b, sep);
    print_var(b, m, &v[i], 1);
  }
}

static void print_perf(obuf *b, const ws_ptx_perf *p) {
  if (p->nmaxntid) {
    puts_(b, ".maxntid ");
    for (int i = 0; i < p->nmaxntid; i++) put(b, "%s%u", i ? ", " : "", p->maxntid[i]);
    puts_(b, "\n");
  }
  if (p->nreqntid) {
    puts_(b, ".reqntid ");
    for (int i = 0; i < p->nreqntid; i++) put(b, "%s%u", i ? ", " : "", p->reqntid[i]);
    puts_(b, "\n");
  }
  if (p->minnctapersm) put(b, ".minnctapersm %u\n", p->minnctapersm);
  if (p->maxnctapersm) put(b, ".maxnctapersm %u\n", p->maxnctapersm);
  if (p->maxnreg) put(b, ".maxnreg %u\n", p->maxnreg);
  if (p->explicitcluster) puts_(b, ".explicitcluster\n");
  if (p->nreqncta) {
    puts_(b, ".reqnctapercluster ");
    for (int i = 0; i < p->nreqncta; i++) put(b, "%s%u", i ? ", " : "", p->reqnctapercluster[i]);
    puts_(b, "\n");
  }
  if (p->maxclusterrank) put(b, ".maxclusterrank %u\n", p->maxclusterrank);
  if (p->noreturn) puts_(b, ".noreturn\n");
  for (uint32_t i = 0; i < p->npragmas; i++) put(b, ".pragma \"%s\";\n", p->pragmas[i]);
}

static void print_function(obuf *b, const ws_ptx_module *m, const ws_ptx_function *f) {
  if (f->linkage & WS_PTX_L_EXTERN) puts_(b, ".extern ");
  if (f->linkage & WS_PTX_L_VISIBLE) puts_(b, ".visible ");
  if (f->linkage & WS_PTX_L_WEAK) puts_(b, ".weak ");
  puts_(b, f->is_entry ? ".entry " : ".func ");
  if (f->nrets) {
    puts_(b, "(");
    print_params(b, m, f->rets, f->nrets, "");
    puts_(b, ") ");
  }
  puts_(b, f->name);
  if (f->nparams || f->is_entry || f->nrets) {
    puts_(b, "(");
    print_params(b, m, f->params, f->nparams, "\n\t");
    puts_(b, f->nparams ? "\n)\n" : ")\n");
  } else {
    puts_(b, "\n");
  }
  print_perf(b, &f->perf);
  if (!f->has_body) {
    puts_(b, ";\n");
    return;
  }
  puts_(b, "{\n");
  int depth = 1;
  char nb[96];
  for (uint32_t i = 0; i < f->nitems; i++) {
    const ws_ptx_item *it = &f->items[i];
    if (it->kind == WS_PTX_I_CLOSE && depth > 1) depth--;
    if (it->kind != WS_PTX_I_LABEL)
      for (int k = 0; k < depth; k++) puts_(b, "\t");
    switch (it->kind) {
    case WS_PTX_I_INST:
      print_inst(b, m, f, &f->insts[it->index]);
      break;
    case WS_PTX_I_LABEL:
      put(b, "%s:", f->labels[it->index].name);
      break;
    case WS_PTX_I_REGDECL: {
      const ws_ptx_reg *r = &f->regs[it->index];
      puts_(b, ".reg ");
      if (r->vec > 1) put(b, ".v%u ", r->vec);
      put(b, ".%s ", ws_ptx_type_name((ws_ptx_type)r->type));
      if (it->extra) put(b, "%s<%u>;", r->name, it->count);
      else put(b, "%s;", ws_ptx_reg_name(nb, sizeof nb, f, it->index));
      break;
    }
    case WS_PTX_I_VAR:
      print_var(b, m, &f->vars[it->index], 1);
      puts_(b, ";");
      break;
    case WS_PTX_I_PROTO: {
      const ws_ptx_proto *p = &f->protos[it->index];
      put(b, "%s: .callprototype ", p->name);
      if (p->nrets) {
        puts_(b, "(");
        print_params(b, m, p->rets, p->nrets, "");
        puts_(b, ") ");
      }
      puts_(b, "_ (");
      print_params(b, m, p->params, p->nparams, "");
      puts_(b, p->noreturn ? ") .noreturn;" : ");");
      break;
    }
    case WS_PTX_I_BTABLE: {
      const ws_ptx_btable *bt = &f->btables[it->index];
      put(b, "%s: .branchtargets ", bt->name);
      for (uint32_t k = 0; k < bt->ntargets; k++)
        put(b, "%s%s", k ? ", " : "", f->labels[bt->labels[k]].name);
      puts_(b, ";");
      break;
    }
    case WS_PTX_I_OPEN:
      puts_(b, "{");
      depth++;
      break;
    case WS_PTX_I_CLOSE:
      puts_(b, "}");
      break;
    case WS_PTX_I_LOC:
      put(b, ".loc %u %u %u%s%s", it->index, it->count, it->extra, it->text ? " " : "",
          it->text ? it->text : "");
      break;
    case WS_PTX_I_PRAGMA:
      put(b, ".pragma \"%s\";", it->text);
      break;
    default:
      puts_(b, it->text ? it->text : "");
      break;
    }
    puts_(b, "\n");
  }
  puts_(b, "}\n");
}

int ws_ptx_print(char **out, const ws_ptx_module *m) {
  *out = NULL;
  obuf b = {NULL, 0, 0, 0};
  put(&b, ".version %u.%u\n", m->version_major, m->version_minor);
  if (m->target) {
    put(&b, ".target %s", m->target);
    if (m->target_extra) put(&b, ", %s", m->target_extra);
    puts_(&b, "\n");
  }
  put(&b, ".address_size %u\n", m->address_size);
  for (uint32_t i = 0; i < m->nitems; i++) {
    const ws_ptx_mitem *it = &m->items[i];
    switch (it->kind) {
    case WS_PTX_MI_VAR:
      puts_(&b, "\n");
      print_var(&b, m, &m->vars[it->index], 1);
      puts_(&b, ";\n");
      break;
    case WS_PTX_MI_FUNC:
      puts_(&b, "\n");
      print_function(&b, m, &m->funcs[it->index]);
      break;
    case WS_PTX_MI_FILE: {
      const ws_ptx_file *f = &m->files[it->index];
      put(&b, ".file %u \"%s\"%s%s\n", f->number, f->name, f->rest ? ", " : "",
          f->rest ? f->rest : "");
      break;
    }
    default:
      put(&b, "%s\n", it->text ? it->text : "");
      break;
    }
  }
  if (b.oom) {
    free(b.p);
    return WS_ENOMEM;
  }
  *out = b.p;
  return WS_OK;
}

int ws_ptx_print_inst(char **out, const ws_ptx_module *m, const ws_ptx_function *f,
                      const ws_ptx_inst *in) {
  *out = NULL;
  obuf b = {NULL, 0, 0, 0};
  print_inst(&b, m, f, in);
  if (b.oom || !b.p) {
    free(b.p);
    return WS_ENOMEM;
  }
  *out = b.p;
  return WS_OK;
}
