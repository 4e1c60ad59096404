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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

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

static void print_operand(ws_strbuf *b, const ws_ptx_module *m, const ws_ptx_function *f,
                          const ws_ptx_operand *o) {
  char nb[96];
  switch (o->kind) {
  case WS_PTX_O_REG:
    ws_sb_printf(b, "%s%s%s", (o->flags & WS_PTX_OF_NOT) ? "!" : "", (o->flags & WS_PTX_OF_NEG) ? "-" : "",
        ws_ptx_reg_name(nb, sizeof nb, f, o->reg));
    break;
  case WS_PTX_O_SINK: ws_sb_puts(b, "_"); break;
  case WS_PTX_O_IMM_INT:
    if (o->flags & WS_PTX_OF_HEX) ws_sb_printf(b, "0x%" PRIX64, (uint64_t)o->imm);
    else ws_sb_printf(b, "%" PRId64, o->imm);
    break;
  case WS_PTX_O_IMM_F32: ws_sb_printf(b, "0f%08" PRIX32, (uint32_t)o->imm); break;
  case WS_PTX_O_IMM_F64: ws_sb_printf(b, "0d%016" PRIX64, (uint64_t)o->imm); break;
  case WS_PTX_O_ADDR:
    if (o->symkind == WS_PTX_S_ABS) {
      ws_sb_printf(b, "[%" PRId64 "]", o->imm);
      break;
    }
    ws_sb_printf(b, "[%s", o->symkind == WS_PTX_S_NONE ? ws_ptx_reg_name(nb, sizeof nb, f, o->reg)
                                             : sym_name(m, f, o->symkind, o->reg));
    if (o->imm) ws_sb_printf(b, "+%" PRId64, o->imm);
    ws_sb_puts(b, "]");
    break;
  case WS_PTX_O_SYM:
    ws_sb_puts(b, sym_name(m, f, o->symkind, o->reg));
    if (o->imm) ws_sb_printf(b, "+%" PRId64, o->imm);
    break;
  case WS_PTX_O_LABEL:
    ws_sb_puts(b, f && o->reg < f->nlabels ? f->labels[o->reg].name : "?");
    break;
  case WS_PTX_O_SREG:
    ws_sb_printf(b, "%%%s", ws_ptx_sreg_name((ws_ptx_sreg)o->reg));
    if (o->comp) ws_sb_printf(b, ".%c", "?xyzw"[o->comp]);
    break;
  case WS_PTX_O_VEC:
  case WS_PTX_O_LIST:
  case WS_PTX_O_TEXADDR:
    ws_sb_puts(b, o->kind == WS_PTX_O_VEC ? "{" : o->kind == WS_PTX_O_LIST ? "(" : "[");
    for (uint32_t i = 0; i < o->comp; i++) {
      if (i) ws_sb_puts(b, ", ");
      if (f && o->reg + i < f->nextra) print_operand(b, m, f, &f->extra[o->reg + i]);
    }
    ws_sb_puts(b, o->kind == WS_PTX_O_VEC ? "}" : o->kind == WS_PTX_O_LIST ? ")" : "]");
    break;
  default: ws_sb_puts(b, "?"); break;
  }
}

static void print_inst(ws_strbuf *b, const ws_ptx_module *m, const ws_ptx_function *f,
                       const ws_ptx_inst *in) {
  char nb[96];
  if (in->guard >= 0)
    ws_sb_printf(b, "@%s%s ", in->guard_not ? "!" : "", ws_ptx_reg_name(nb, sizeof nb, f, (uint32_t)in->guard));
  if (in->op == WS_PTX_OP_UNKNOWN) { /* kept as written (WS_PTX_PARSE_KEEP_UNKNOWN) */
    uint64_t u = (uint64_t)in->ops[0].imm;
    ws_sb_puts(b, u < f->nunknown ? f->unknown[u].text : "?;");
    return;
  }
  ws_sb_puts(b, ws_ptx_opcode_name((ws_ptx_opcode)in->op));
  int pre = in->ntypes ? in->mods_pre : in->nmods;
  for (int i = 0; i < pre; i++) ws_sb_printf(b, ".%s", ws_ptx_mod_name((ws_ptx_mod)in->mods[i]));
  for (int i = 0; i < in->ntypes; i++) ws_sb_printf(b, ".%s", ws_ptx_type_name((ws_ptx_type)in->type[i]));
  for (int i = pre; i < in->nmods; i++)
    ws_sb_printf(b, ".%s", ws_ptx_mod_name((ws_ptx_mod)in->mods[i]));
  for (int k = 0; k < in->nops; k++) {
    const ws_ptx_operand *o = &in->ops[k];
    if (o->flags & WS_PTX_OF_PIPE) ws_sb_puts(b, "|");
    else ws_sb_puts(b, k ? ", " : " ");
    print_operand(b, m, f, o);
  }
  ws_sb_puts(b, ";");
}

static uint32_t natural_align(const ws_ptx_var *v) {
  return (uint32_t)ws_ptx_type_size((ws_ptx_type)v->type) * v->vec;
}

static void print_init(ws_strbuf *b, const ws_ptx_module *m, const ws_ptx_var *v,
                       const ws_ptx_init *e) {
  int tk = ws_ptx_type_kind((ws_ptx_type)v->type);
  switch (e->kind) {
  case WS_PTX_O_IMM_INT:
    if (tk == WS_PTX_TK_S) ws_sb_printf(b, "%" PRId64, e->value);
    else ws_sb_printf(b, "%" PRIu64, (uint64_t)e->value);
    break;
  case WS_PTX_O_IMM_F32: ws_sb_printf(b, "0f%08" PRIX32, (uint32_t)e->value); break;
  case WS_PTX_O_IMM_F64: ws_sb_printf(b, "0d%016" PRIX64, (uint64_t)e->value); break;
  case WS_PTX_O_SYM: {
    const char *n = sym_name(m, NULL, e->symkind, e->sym);
    if (e->generic) ws_sb_printf(b, "generic(%s)", n);
    else ws_sb_puts(b, n);
    if (e->value) ws_sb_printf(b, "+%" PRId64, e->value);
    break;
  }
  default: ws_sb_puts(b, "0"); break;
  }
}

/* Nested braces for multi-dimensional arrays when the count matches. */
static void print_init_dims(ws_strbuf *b, const ws_ptx_module *m, const ws_ptx_var *v, int dim,
                            uint32_t *at) {
  if (dim < 0 || dim >= 4) return;
  uint64_t n = v->dims[dim];
  ws_sb_puts(b, "{");
  for (uint64_t i = 0; i < n && *at < v->ninit; i++) {
    if (i) ws_sb_puts(b, ", ");
    if (dim + 1 < v->ndims) {
      print_init_dims(b, m, v, dim + 1, at);
    } else {
      for (uint32_t k = 0; k < v->vec && *at < v->ninit; k++) {
        if (k) ws_sb_puts(b, ", ");
        print_init(b, m, v, &v->init[(*at)++]);
      }
    }
  }
  ws_sb_puts(b, "}");
}

/* The initialiser as one flat list {e0, e1, ...}. */
static void print_init_flat(ws_strbuf *b, const ws_ptx_module *m, const ws_ptx_var *v) {
  ws_sb_puts(b, "{");
  for (uint32_t i = 0; i < v->ninit; i++) {
    if (i) ws_sb_puts(b, ", ");
    print_init(b, m, v, &v->init[i]);
  }
  ws_sb_puts(b, "}");
}

static void print_var(ws_strbuf *b, const ws_ptx_module *m, const ws_ptx_var *v, int with_space) {
  if (v->linkage & WS_PTX_L_EXTERN) ws_sb_puts(b, ".extern ");
  if (v->linkage & WS_PTX_L_VISIBLE) ws_sb_puts(b, ".visible ");
  if (v->linkage & WS_PTX_L_WEAK) ws_sb_puts(b, ".weak ");
  if (v->linkage & WS_PTX_L_COMMON) ws_sb_puts(b, ".common ");
  if (with_space) ws_sb_printf(b, ".%s ", ws_ptx_space_name((ws_ptx_space)v->space));
  if (v->managed) ws_sb_puts(b, ".attribute(.managed) ");
  if (v->align != natural_align(v)) ws_sb_printf(b, ".align %u ", v->align);
  if (v->vec > 1) ws_sb_printf(b, ".v%u ", v->vec);
  ws_sb_printf(b, ".%s", ws_ptx_type_name((ws_ptx_type)v->type));
  if (v->is_ptr) {
    ws_sb_puts(b, " .ptr");
    if (v->ptr_space) ws_sb_printf(b, " .%s", ws_ptx_space_name((ws_ptx_space)v->ptr_space));
    if (v->ptr_align) ws_sb_printf(b, " .align %u", v->ptr_align);
  }
  ws_sb_printf(b, " %s", v->name);
  for (int i = 0; i < v->ndims; i++) {
    if (v->unsized && i == v->ndims - 1) ws_sb_puts(b, "[]");
    else ws_sb_printf(b, "[%" PRIu64 "]", v->dims[i]);
  }
  if (v->ninit) {
    ws_sb_puts(b, " = ");
    uint32_t at = 0;
    if (!v->init_braced) {
      print_init(b, m, v, &v->init[0]);
    } else if (v->ndims > 1) {
      uint64_t total = v->vec;
      for (int i = 0; i < v->ndims; i++) total *= v->dims[i];
      if (total == v->ninit) print_init_dims(b, m, v, 0, &at);
      else print_init_flat(b, m, v);
    } else {
      print_init_flat(b, m, v);
    }
  }
}

static void print_params(ws_strbuf *b, const ws_ptx_module *m, const ws_ptx_var *v, uint32_t n,
                         const char *sep) {
  for (uint32_t i = 0; i < n; i++) {
    ws_sb_printf(b, "%s", i ? "," : "");
    ws_sb_puts(b, sep);
    print_var(b, m, &v[i], 1);
  }
}

static void print_perf(ws_strbuf *b, const ws_ptx_perf *p) {
  if (p->nmaxntid) {
    ws_sb_puts(b, ".maxntid ");
    for (int i = 0; i < p->nmaxntid; i++) ws_sb_printf(b, "%s%u", i ? ", " : "", p->maxntid[i]);
    ws_sb_puts(b, "\n");
  }
  if (p->nreqntid) {
    ws_sb_puts(b, ".reqntid ");
    for (int i = 0; i < p->nreqntid; i++) ws_sb_printf(b, "%s%u", i ? ", " : "", p->reqntid[i]);
    ws_sb_puts(b, "\n");
  }
  if (p->minnctapersm) ws_sb_printf(b, ".minnctapersm %u\n", p->minnctapersm);
  if (p->maxnctapersm) ws_sb_printf(b, ".maxnctapersm %u\n", p->maxnctapersm);
  if (p->maxnreg) ws_sb_printf(b, ".maxnreg %u\n", p->maxnreg);
  if (p->explicitcluster) ws_sb_puts(b, ".explicitcluster\n");
  if (p->nreqncta) {
    ws_sb_puts(b, ".reqnctapercluster ");
    for (int i = 0; i < p->nreqncta; i++) ws_sb_printf(b, "%s%u", i ? ", " : "", p->reqnctapercluster[i]);
    ws_sb_puts(b, "\n");
  }
  if (p->maxclusterrank) ws_sb_printf(b, ".maxclusterrank %u\n", p->maxclusterrank);
  if (p->noreturn) ws_sb_puts(b, ".noreturn\n");
  for (uint32_t i = 0; i < p->npragmas; i++) ws_sb_printf(b, ".pragma \"%s\";\n", p->pragmas[i]);
}

static void print_function(ws_strbuf *b, const ws_ptx_module *m, const ws_ptx_function *f) {
  if (f->linkage & WS_PTX_L_EXTERN) ws_sb_puts(b, ".extern ");
  if (f->linkage & WS_PTX_L_VISIBLE) ws_sb_puts(b, ".visible ");
  if (f->linkage & WS_PTX_L_WEAK) ws_sb_puts(b, ".weak ");
  ws_sb_puts(b, f->is_entry ? ".entry " : ".func ");
  if (f->nrets) {
    ws_sb_puts(b, "(");
    print_params(b, m, f->rets, f->nrets, "");
    ws_sb_puts(b, ") ");
  }
  ws_sb_puts(b, f->name);
  if (f->nparams || f->is_entry || f->nrets) {
    ws_sb_puts(b, "(");
    print_params(b, m, f->params, f->nparams, "\n\t");
    ws_sb_puts(b, f->nparams ? "\n)\n" : ")\n");
  } else {
    ws_sb_puts(b, "\n");
  }
  print_perf(b, &f->perf);
  if (!f->has_body) {
    ws_sb_puts(b, ";\n");
    return;
  }
  ws_sb_puts(b, "{\n");
  int depth = 1;
  char nb[96];
  for (uint32_t i = 0; i < f->nitems; i++) {
    const ws_ptx_item *it = &f->items[i];
    if (it->kind == WS_PTX_I_CLOSE && depth > 1) depth--;
    if (it->kind != WS_PTX_I_LABEL)
      for (int k = 0; k < depth; k++) ws_sb_puts(b, "\t");
    switch (it->kind) {
    case WS_PTX_I_INST:
      print_inst(b, m, f, &f->insts[it->index]);
      break;
    case WS_PTX_I_LABEL:
      ws_sb_printf(b, "%s:", f->labels[it->index].name);
      break;
    case WS_PTX_I_REGDECL: {
      const ws_ptx_reg *r = &f->regs[it->index];
      ws_sb_puts(b, ".reg ");
      if (r->vec > 1) ws_sb_printf(b, ".v%u ", r->vec);
      ws_sb_printf(b, ".%s ", ws_ptx_type_name((ws_ptx_type)r->type));
      if (it->extra) ws_sb_printf(b, "%s<%u>;", r->name, it->count);
      else ws_sb_printf(b, "%s;", ws_ptx_reg_name(nb, sizeof nb, f, it->index));
      break;
    }
    case WS_PTX_I_VAR:
      print_var(b, m, &f->vars[it->index], 1);
      ws_sb_puts(b, ";");
      break;
    case WS_PTX_I_PROTO: {
      const ws_ptx_proto *p = &f->protos[it->index];
      ws_sb_printf(b, "%s: .callprototype ", p->name);
      if (p->nrets) {
        ws_sb_puts(b, "(");
        print_params(b, m, p->rets, p->nrets, "");
        ws_sb_puts(b, ") ");
      }
      ws_sb_puts(b, "_ (");
      print_params(b, m, p->params, p->nparams, "");
      ws_sb_puts(b, p->noreturn ? ") .noreturn;" : ");");
      break;
    }
    case WS_PTX_I_BTABLE: {
      const ws_ptx_btable *bt = &f->btables[it->index];
      ws_sb_printf(b, "%s: .branchtargets ", bt->name);
      for (uint32_t k = 0; k < bt->ntargets; k++)
        ws_sb_printf(b, "%s%s", k ? ", " : "", f->labels[bt->labels[k]].name);
      ws_sb_puts(b, ";");
      break;
    }
    case WS_PTX_I_OPEN:
      ws_sb_puts(b, "{");
      depth++;
      break;
    case WS_PTX_I_CLOSE:
      ws_sb_puts(b, "}");
      break;
    case WS_PTX_I_LOC:
      ws_sb_printf(b, ".loc %u %u %u%s%s", it->index, it->count, it->extra, it->text ? " " : "",
          it->text ? it->text : "");
      break;
    case WS_PTX_I_PRAGMA:
      ws_sb_printf(b, ".pragma \"%s\";", it->text);
      break;
    default:
      ws_sb_puts(b, it->text ? it->text : "");
      break;
    }
    ws_sb_puts(b, "\n");
  }
  ws_sb_puts(b, "}\n");
}

int ws_ptx_print(char **out, const ws_ptx_module *m) {
  *out = NULL;
  ws_strbuf b = WS_STRBUF_INIT;
  ws_sb_printf(&b, ".version %u.%u\n", m->version_major, m->version_minor);
  if (m->target) {
    ws_sb_printf(&b, ".target %s", m->target);
    if (m->target_extra) ws_sb_printf(&b, ", %s", m->target_extra);
    ws_sb_puts(&b, "\n");
  }
  ws_sb_printf(&b, ".address_size %u\n", m->address_size);
  for (uint32_t i = 0; i < m->nitems; i++) {
    const ws_ptx_mitem *it = &m->items[i];
    switch (it->kind) {
    case WS_PTX_MI_VAR:
      ws_sb_puts(&b, "\n");
      print_var(&b, m, &m->vars[it->index], 1);
      ws_sb_puts(&b, ";\n");
      break;
    case WS_PTX_MI_FUNC:
      ws_sb_puts(&b, "\n");
      print_function(&b, m, &m->funcs[it->index]);
      break;
    case WS_PTX_MI_FILE: {
      const ws_ptx_file *f = &m->files[it->index];
      ws_sb_printf(&b, ".file %u \"%s\"%s%s\n", f->number, f->name, f->rest ? ", " : "",
          f->rest ? f->rest : "");
      break;
    }
    default:
      ws_sb_printf(&b, "%s\n", it->text ? it->text : "");
      break;
    }
  }
  *out = ws_sb_take(&b);
  return *out ? WS_OK : WS_ENOMEM;
}

int ws_ptx_print_inst(char **out, const ws_ptx_module *m, const ws_ptx_function *f,
                      const ws_ptx_inst *in) {
  *out = NULL;
  ws_strbuf b = WS_STRBUF_INIT;
  print_inst(&b, m, f, in);
  *out = ws_sb_take(&b);
  return *out ? WS_OK : WS_ENOMEM;
}
