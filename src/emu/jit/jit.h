/*
 * jit.h — the translated engine's parts inside the emulator: the
 * translator (translate.c: a loaded program's PTX to C), the compiled code
 * (jit.c: compile, cache, dlopen) and the block runner (jit_run.c).
 * docs/emulator.md, "The translated engine", describes the whole.
 */
#ifndef WS_EMU_JIT_H
#define WS_EMU_JIT_H

#include "emu/emu_int.h"
#include "emu/jit/jit_abi.h"
#include "util/strbuf.h"

/* The translator's version: part of every generated file (and so of the
 * cache key).  Bump it when the translation of some instruction changes. */
#define WS_JIT_TRANSLATOR_VERSION 1

/* Translate program p (its kernel and every function it reaches) to C into
 * out: the embedded headers, then one function per PTX function and the
 * `ws_jit_program` descriptor (without its key: jit.c appends the last
 * line).  WS_EUNSUP, with a note naming the instruction and its line, for
 * anything the translator does not handle (the kernel then runs in the
 * interpreter); WS_ENOMEM. */
int ws_emu_jit_translate(ws_strbuf *out, const ws_emu_program *p, ws_diag *d);
/* Whether the translator handles decoded opcode op (a D_* of dops.def): its
 * list, JIT_DOPS in translate.c.  A kernel with any other opcode (a row
 * added to dops.def later included) is refused before it is translated,
 * naming the instruction and its line, and runs in the interpreter. */
int ws_emu_jit_dop_translated(int op);
/* Whether program p has an instruction whose decoded opcode is not in that
 * list (p then runs in the interpreter by rule). */
int ws_emu_jit_gated(const ws_emu_program *p);

/* Code loaded for a program (owned by it: ws_emu_program.jit). */
struct ws_jit_code {
  void *dl;                 /* dlopen handle */
  const jit_program *prog;  /* the descriptor it exports */
};
void ws_emu_jit_code_free(struct ws_jit_code *c);

/* Run block B->block of B's launch with the program's translated code.  The
 * block's shared memory, fault, printf buffer and counters are B's; the
 * warps are the worker's own (B->jit, made on first use).  0, or -1 with
 * B->flt set (or B->flt.kind 0 for an allocation failure). */
int ws_emu_jit_run_block(blockctx *B);
/* Free a worker's translated-engine state (NULL: nothing). */
void ws_emu_jit_block_free(void *state);

/* The host functions and the num.c table the generated code calls. */
extern const jit_rt ws_emu_jit_rt;
extern const jit_num ws_emu_jit_num;

#endif
