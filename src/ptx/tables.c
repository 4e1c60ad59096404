/*
 * tables.c — static facts about opcodes, types, spaces, modifiers and
 * special registers, generated from the X-macro files in warpsight/ptx/.
 */
#include <stdio.h>

#include "warpsight/ptx.h"

static const char *const op_names[] = {
    "",
#define OP(id, name, omin, omax, tmin, tmax, types, kind) name,
#include "warpsight/ptx/opcodes.def"
#undef OP
};

static const unsigned char op_kinds[] = {
    WS_PTX_K_MISC,
#define OP(id, name, omin, omax, tmin, tmax, types, kind) WS_PTX_K_##kind,
#include "warpsight/ptx/opcodes.def"
#undef OP
};

static const char *const kind_names[] = {
    "ARITH", "SFU", "LOGIC", "COMPARE", "MOVE", "CONVERT", "LOAD", "STORE",
    "PREFETCH", "ASYNC_COPY", "ATOMIC", "REDUCTION", "TEXTURE", "SURF_LOAD",
    "SURF_STORE", "BARRIER", "WARP_SYNC", "FENCE", "BRANCH", "CALL", "RETURN",
    "EXIT", "WARP", "MMA", "MISC", "MBARRIER"};

static const char *const type_names[] = {
    "",
#define TYPE(id, name, bits, kind) name,
#include "warpsight/ptx/types.def"
#undef TYPE
};

static const short type_bits[] = {
    0,
#define TYPE(id, name, bits, kind) bits,
#include "warpsight/ptx/types.def"
#undef TYPE
};

static const unsigned char type_kinds[] = {
    0,
#define TYPE(id, name, bits, kind) WS_PTX_TK_##kind,
#include "warpsight/ptx/types.def"
#undef TYPE
};

static const char *const space_names[] = {
    "",
#define SPACE(id, name) name,
#include "warpsight/ptx/spaces.def"
#undef SPACE
};

static const char *const mod_names[] = {
    "",
#define MOD(id, text, group) text,
#include "warpsight/ptx/modifiers.def"
#undef MOD
};

static const unsigned char mod_groups[] = {
    WS_PTX_MG_FLAG,
#define MOD(id, text, group) WS_PTX_MG_##group,
#include "warpsight/ptx/modifiers.def"
#undef MOD
};

static const char *const sreg_names[] = {
    "",
#define SREG(id, name, vec, bits) name,
#include "warpsight/ptx/sregs.def"
#undef SREG
};

_Static_assert(WS_PTX_MOD_COUNT <= 256, "modset holds 256 modifiers");

const char *ws_ptx_opcode_name(ws_ptx_opcode op) {
  return (unsigned)op < WS_PTX_OP_COUNT ? op_names[op] : "?";
}
ws_ptx_kind ws_ptx_opcode_kind(ws_ptx_opcode op) {
  return (unsigned)op < WS_PTX_OP_COUNT ? (ws_ptx_kind)op_kinds[op] : WS_PTX_K_MISC;
}
const char *ws_ptx_kind_name(ws_ptx_kind k) {
  return (unsigned)k < sizeof kind_names / sizeof *kind_names ? kind_names[k] : "?";
}
const char *ws_ptx_type_name(ws_ptx_type t) {
  return (unsigned)t < WS_PTX_T_COUNT ? type_names[t] : "?";
}
int ws_ptx_type_bits(ws_ptx_type t) {
  return (unsigned)t < WS_PTX_T_COUNT ? type_bits[t] : 0;
}
int ws_ptx_type_kind(ws_ptx_type t) {
  return (unsigned)t < WS_PTX_T_COUNT ? type_kinds[t] : 0;
}
int ws_ptx_type_size(ws_ptx_type t) {
  int b = ws_ptx_type_bits(t);
  return b <= 8 ? 1 : b / 8;
}
const char *ws_ptx_space_name(ws_ptx_space s) {
  return (unsigned)s < WS_PTX_SP_COUNT ? space_names[s] : "?";
}
const char *ws_ptx_mod_name(ws_ptx_mod m) {
  return (unsigned)m < WS_PTX_MOD_COUNT ? mod_names[m] : "?";
}
int ws_ptx_shape_mnk(ws_ptx_mod m, unsigned *M, unsigned *N, unsigned *K) {
  /* the name spells them: "m16n8k16" */
  unsigned a, b, c;
  char tail;
  if (ws_ptx_mod_group(m) != WS_PTX_MG_SHAPE ||
      sscanf(mod_names[m], "m%un%uk%u%c", &a, &b, &c, &tail) != 3)
    return 0;
  *M = a, *N = b, *K = c;
  return 1;
}
ws_ptx_modgroup ws_ptx_mod_group(ws_ptx_mod m) {
  return (unsigned)m < WS_PTX_MOD_COUNT ? (ws_ptx_modgroup)mod_groups[m] : WS_PTX_MG_FLAG;
}
const char *ws_ptx_sreg_name(ws_ptx_sreg s) {
  return (unsigned)s < WS_PTX_SR_COUNT ? sreg_names[s] : "?";
}

#include "ptx/ptx_int.h"

static const ptx_opinfo op_info[] = {
    {0, 0, 0, 0, 0},
#define OP(id, name, omin, omax, tmin, tmax, types, kind) {omin, omax, tmin, tmax, types},
#include "warpsight/ptx/opcodes.def"
#undef OP
};

const ptx_opinfo *ws_ptx_opcode_info(ws_ptx_opcode op) {
  return &op_info[(unsigned)op < WS_PTX_OP_COUNT ? op : 0];
}
