/*
 * cfg.c — basic blocks, CFG, dominators, post-dominators, natural loops,
 * reaching definitions (def-use chains) and per-block ILP/MLP.
 *
 * Dominators use the iterative algorithm of Cooper, Harvey and Kennedy
 * ("A Simple, Fast Dominance Algorithm", 2001) on reverse post-order; the
 * post-dominators run the same code on the reversed graph rooted at the
 * virtual exit.  Blocks that cannot reach the exit (an endless loop) get
 * the exit as immediate post-dominator.
 *
 * ILP and MLP follow Sim et al. (PPoPP'12) Section 5.3; the exact rules are
 * in docs/static-analysis.md:
 *  - ILP: walk the block in order; an instruction joins the current group
 *    unless it reads (guard included) a register written by an instruction
 *    already in the group, in which case it starts a new group.
 *    ILP = instructions / groups.
 *  - MLP: for each load L (ws_analysis_is_mem_load) the local MLP is the
 *    number of memory requests (ws_analysis_is_mem_request) from L itself up
 *    to, not including, the first later instruction of the block that reads
 *    a register L defines (the end of the block when there is none).  Block
 *    MLP = mean local MLP over its loads.
 */
#include "warpsight/analysis.h"

#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

/* All allocations of a cfg, freed together. */
typedef struct memlist {
  void **p;
  size_t n, cap;
} memlist;

static void *cmalloc(ws_cfg *c, size_t n) {
  memlist *ml = c->mem;
  if (WS_VEC_RESERVE(ml->p, ml->cap, ml->n + 1)) return NULL;
  void *q = calloc(n ? n : 1, 1);
  if (q) ml->p[ml->n++] = q;
  return q;
}

void ws_analysis_free(ws_cfg *c) {
  if (!c) return;
  memlist *ml = c->mem;
  if (ml) {
    for (size_t i = 0; i < ml->n; i++) free(ml->p[i]);
    free(ml->p);
    free(ml);
  }
  free(c);
}

static int is_terminator(const ws_ptx_inst *in) {
  ws_ptx_kind k = ws_ptx_opcode_kind((ws_ptx_opcode)in->op);
  return k == WS_PTX_K_BRANCH || k == WS_PTX_K_RETURN || k == WS_PTX_K_EXIT;
}

/* Immediate dominators over a graph of n nodes rooted at `root`, with
 * successor lists (ss/s) and predecessor lists (ps/p) in CSR form.
 * idom[root] = root while computing; unreachable nodes get WS_CFG_NONE. */
static int compute_idom(uint32_t n, uint32_t root, const uint32_t *ss, const uint32_t *s,
                        const uint32_t *ps, const uint32_t *p, uint32_t *idom) {
  uint32_t *order = malloc(n * sizeof *order);   /* post-order */
  uint32_t *num = malloc(n * sizeof *num);       /* post-order number */
  uint32_t *stack = malloc(n * sizeof *stack);
  uint32_t *iter = malloc(n * sizeof *iter);
  if (!order || !num || !stack || !iter) {
    free(order); free(num); free(stack); free(iter);
    return -1;
  }
  for (uint32_t i = 0; i < n; i++) {
    num[i] = WS_CFG_NONE;
    idom[i] = WS_CFG_NONE;
  }
  uint32_t norder = 0, sp = 0;
  stack[sp++] = root;
  iter[root] = ss[root];
  num[root] = 0; /* visited marker until numbered */
  uint8_t *seen = calloc(n, 1);
  if (!seen) {
    free(order); free(num); free(stack); free(iter);
    return -1;
  }
  seen[root] = 1;
  while (sp) {
    uint32_t v = stack[sp - 1];
    if (iter[v] < ss[v + 1]) {
      uint32_t w = s[iter[v]++];
      if (!seen[w]) {
        seen[w] = 1;
        iter[w] = ss[w];
        stack[sp++] = w;
      }
    } else {
      sp--;
      num[v] = norder;
      order[norder++] = v;
    }
  }
  idom[root] = root;
  int changed = 1;
  while (changed) {
    changed = 0;
    for (uint32_t k = norder; k-- > 0;) { /* reverse post-order */
      uint32_t b = order[k];
      if (b == root) continue;
      uint32_t nd = WS_CFG_NONE;
      for (uint32_t e = ps[b]; e < ps[b + 1]; e++) {
        uint32_t q = p[e];
        if (!seen[q] || idom[q] == WS_CFG_NONE) continue;
        if (nd == WS_CFG_NONE) {
          nd = q;
          continue;
        }
        uint32_t x = q, y = nd;
        while (x != y) {
          while (num[x] < num[y]) x = idom[x];
          while (num[y] < num[x]) y = idom[y];
        }
        nd = x;
      }
      if (nd != WS_CFG_NONE && idom[b] != nd) {
        idom[b] = nd;
        changed = 1;
      }
    }
  }
  free(order); free(num); free(stack); free(iter); free(seen);
  return 0;
}

int ws_analysis_cfg_dominates(const ws_cfg *c, uint32_t a, uint32_t b) {
  if (a >= c->nblocks || b >= c->nblocks || !c->blocks[b].reachable) return 0;
  for (uint32_t x = b;; x = c->blocks[x].idom) {
    if (x == a) return 1;
    if (c->blocks[x].idom == WS_CFG_NONE) return 0;
  }
}

int ws_analysis_cfg_postdominates(const ws_cfg *c, uint32_t a, uint32_t b) {
  if (b > c->nblocks || a > c->nblocks) return 0;
  for (uint32_t x = b, steps = 0; steps <= c->nblocks + 1; steps++) {
    if (x == a) return 1;
    if (x == c->nblocks) return 0;
    x = c->blocks[x].ipdom;
  }
  return 0;
}

uint32_t ws_analysis_cfg_reconverge_inst(const ws_cfg *c, uint32_t inst) {
  if (inst >= c->func->ninsts) return c->func->ninsts;
  uint32_t pd = c->blocks[c->block_of[inst]].ipdom;
  return pd >= c->nblocks ? c->func->ninsts : c->blocks[pd].first;
}

/* --- loops -------------------------------------------------------------- */

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static int build_loops(ws_cfg *c) {
  uint32_t nb = c->nblocks;
  /* one candidate loop per header: body as a byte map */
  uint32_t *latch_cnt = calloc(nb + 1, sizeof *latch_cnt);
  uint32_t *slot = malloc((nb + 1) * sizeof *slot); /* header -> body row */
  uint32_t *stack = malloc((nb + 1) * sizeof *stack);
  uint8_t *body = NULL;
  if (!latch_cnt || !slot || !stack) {
    free(latch_cnt); free(slot); free(stack);
    return -1;
  }
  uint32_t nh = 0;
  for (uint32_t n = 0; n < nb; n++)
    for (uint32_t k = 0; k < c->blocks[n].nsucc; k++) {
      uint32_t h = c->blocks[n].succ[k];
      if (h < nb && ws_analysis_cfg_dominates(c, h, n) && latch_cnt[h]++ == 0) slot[h] = nh++;
    }
  body = calloc((size_t)nh * nb + 1, 1);
  if (!body) {
    free(latch_cnt); free(slot); free(stack);
    return -1;
  }
  for (uint32_t n = 0; n < nb; n++) {
    const ws_bb *bn = &c->blocks[n];
    for (uint32_t k = 0; k < bn->nsucc; k++) {
      uint32_t h = bn->succ[k];
      if (h >= nb || !ws_analysis_cfg_dominates(c, h, n)) continue;
      uint8_t *bd = body + (size_t)slot[h] * nb;
      bd[h] = 1;
      uint32_t sp = 0;
      if (!bd[n]) {
        bd[n] = 1;
        stack[sp++] = n;
      }
      while (sp) {
        uint32_t x = stack[--sp];
        for (uint32_t e = 0; e < c->blocks[x].npred; e++) {
          uint32_t q = c->blocks[x].pred[e];
          if (!bd[q] && c->blocks[q].reachable) {
            bd[q] = 1;
            stack[sp++] = q;
          }
        }
      }
    }
  }
  uint32_t nl = 0;
  for (uint32_t h = 0; h < nb; h++) nl += latch_cnt[h] ? 1 : 0;
  c->nloops = nl;
  c->loops = cmalloc(c, nl * sizeof *c->loops);
  uint32_t *sizes = calloc(nl + 1, sizeof *sizes);
  if (!c->loops || !sizes) {
    free(body); free(latch_cnt); free(stack); free(sizes); free(slot);
    return -1;
  }
  uint32_t li = 0;
  for (uint32_t h = 0; h < nb; h++) {
    if (!latch_cnt[h]) continue;
    ws_loop *L = &c->loops[li++];
    const uint8_t *bd = body + (size_t)slot[h] * nb;
    L->header = h;
    for (uint32_t x = 0; x < nb; x++) L->nblocks += bd[x];
    L->blocks = cmalloc(c, L->nblocks * sizeof *L->blocks);
    L->latches = cmalloc(c, latch_cnt[h] * sizeof *L->latches);
    if (!L->blocks || !L->latches) {
      free(body); free(latch_cnt); free(stack); free(sizes); free(slot);
      return -1;
    }
    uint32_t k = 0;
    for (uint32_t x = 0; x < nb; x++)
      if (bd[x]) L->blocks[k++] = x;
    for (uint32_t x = 0; x < nb; x++)
      for (uint32_t e = 0; e < c->blocks[x].nsucc; e++)
        if (c->blocks[x].succ[e] == h && bd[x] && ws_analysis_cfg_dominates(c, h, x) &&
            L->nlatches < latch_cnt[h])
          L->latches[L->nlatches++] = x;
  }
  /* outer loops first: a loop containing another has more blocks */
  for (uint32_t i = 1; i < nl; i++) {
    ws_loop t = c->loops[i];
    uint32_t j = i;
    while (j > 0 && (c->loops[j - 1].nblocks < t.nblocks ||
                     (c->loops[j - 1].nblocks == t.nblocks && c->loops[j - 1].header > t.header))) {
      c->loops[j] = c->loops[j - 1];
      j--;
    }
    c->loops[j] = t;
  }
  for (uint32_t i = 0; i < nl; i++) {
    ws_loop *L = &c->loops[i];
    L->parent = WS_CFG_NONE;
    L->depth = 1;
    /* the innermost enclosing loop is the last earlier one containing the header */
    for (uint32_t j = i; j-- > 0;) {
      const ws_loop *P = &c->loops[j];
      if (bsearch(&L->header, P->blocks, P->nblocks, sizeof *P->blocks, cmp_u32) &&
          P->header != L->header) {
        L->parent = j;
        L->depth = P->depth + 1;
        break;
      }
    }
  }
  for (uint32_t b = 0; b < nb; b++) {
    c->blocks[b].loop = WS_CFG_NONE;
    c->blocks[b].loop_depth = 0;
  }
  for (uint32_t i = 0; i < nl; i++) /* inner loops come later and win */
    for (uint32_t k = 0; k < c->loops[i].nblocks; k++) {
      ws_bb *bb = &c->blocks[c->loops[i].blocks[k]];
      if (c->loops[i].depth > bb->loop_depth) {
        bb->loop = i;
        bb->loop_depth = c->loops[i].depth;
      }
    }
  free(body); free(latch_cnt); free(stack); free(sizes); free(slot);
  return 0;
}

/* --- def-use ------------------------------------------------------------ */

static int build_defuse(ws_cfg *c) {
  const ws_ptx_function *f = c->func;
  uint32_t n = f->ninsts, nb = c->nblocks, nr = f->nregs;
  uint32_t defs[WS_ANALYSIS_MAX_REGS], uses[WS_ANALYSIS_MAX_REGS];
  int nd, nu;
  /* def sites, numbered in program order; per register CSR */
  uint32_t ndefs = 0, nuses = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (ws_analysis_inst_regs(f, &f->insts[i], defs, &nd, uses, &nu) && !c->regs_cut++) c->first_cut = i;
    ndefs += (uint32_t)nd;
    nuses += (uint32_t)nu;
  }
  uint32_t *site_inst = malloc((ndefs + 1) * sizeof *site_inst);
  uint32_t *site_reg = malloc((ndefs + 1) * sizeof *site_reg);
  uint32_t *reg_start = calloc(nr + 2, sizeof *reg_start);
  uint32_t *reg_sites = malloc((ndefs + 1) * sizeof *reg_sites);
  size_t W = (ndefs + 63) / 64;
  uint64_t *in = calloc((size_t)nb * W + 1, sizeof *in);
  uint64_t *out = calloc((size_t)nb * W + 1, sizeof *out);
  uint64_t *gen = calloc((size_t)nb * W + 1, sizeof *gen);
  uint64_t *kill = calloc((size_t)nb * W + 1, sizeof *kill);
  uint64_t *tmp = calloc(W + 1, sizeof *tmp);
  uint32_t *last_def = malloc((nr + 1) * sizeof *last_def);
  size_t *def_off = NULL;
  uint32_t *def_all = NULL;
  int rc = -1;
  if (!site_inst || !site_reg || !reg_start || !reg_sites || !in || !out || !gen || !kill ||
      !tmp || !last_def)
    goto done;
  uint32_t s = 0;
  for (uint32_t i = 0; i < n; i++) {
    ws_analysis_inst_regs(f, &f->insts[i], defs, &nd, uses, &nu);
    for (int k = 0; k < nd; k++) {
      site_inst[s] = i;
      site_reg[s] = defs[k];
      reg_start[defs[k] + 1]++;
      s++;
    }
  }
  for (uint32_t r = 0; r < nr; r++) reg_start[r + 1] += reg_start[r];
  {
    uint32_t *fill = calloc(nr + 1, sizeof *fill);
    if (!fill) goto done;
    for (uint32_t k = 0; k < ndefs; k++) {
      uint32_t r = site_reg[k];
      reg_sites[reg_start[r] + fill[r]++] = k;
    }
    free(fill);
  }
  /* gen/kill per block: an unguarded def kills the register's other defs.
   * Sites are numbered in program order, so a block's sites are a range. */
  uint32_t site_pos = 0;
  for (uint32_t b = 0; b < nb; b++) {
    uint64_t *g = gen + (size_t)b * W, *kl = kill + (size_t)b * W;
    while (site_pos < ndefs && site_inst[site_pos] < c->blocks[b].first) site_pos++;
    for (uint32_t k = site_pos; k < ndefs && site_inst[k] < c->blocks[b].end; k++) {
      uint32_t i = site_inst[k];
      uint32_t r = site_reg[k];
      if (f->insts[i].guard < 0) {
        for (uint32_t e = reg_start[r]; e < reg_start[r + 1]; e++) {
          uint32_t o = reg_sites[e];
          g[o / 64] &= ~(1ull << (o % 64));
          kl[o / 64] |= 1ull << (o % 64);
        }
      }
      g[k / 64] |= 1ull << (k % 64);
    }
  }
  /* iterate to a fixed point in program order */
  int changed = 1;
  while (changed) {
    changed = 0;
    for (uint32_t b = 0; b < nb; b++) {
      uint64_t *ib = in + (size_t)b * W;
      memset(tmp, 0, W * sizeof *tmp);
      for (uint32_t e = 0; e < c->blocks[b].npred; e++) {
        const uint64_t *op = out + (size_t)c->blocks[b].pred[e] * W;
        for (size_t w = 0; w < W; w++) tmp[w] |= op[w];
      }
      memcpy(ib, tmp, W * sizeof *tmp);
      uint64_t *ob = out + (size_t)b * W;
      const uint64_t *g = gen + (size_t)b * W, *kl = kill + (size_t)b * W;
      for (size_t w = 0; w < W; w++) {
        uint64_t v = g[w] | (ib[w] & ~kl[w]);
        if (v != ob[w]) {
          ob[w] = v;
          changed = 1;
        }
      }
    }
  }
  /* uses and their reaching definitions */
  c->nuses = nuses;
  c->uses = cmalloc(c, (nuses + 1) * sizeof *c->uses);
  c->use_start = cmalloc(c, (n + 1) * sizeof *c->use_start);
  /* every use's reaching definitions, back to back (use k's start at
   * def_off[k]); grown as needed, never cut */
  size_t def_cap = 0, def_used = 0;
  def_off = malloc(((size_t)nuses + 1) * sizeof *def_off);
  if (!c->uses || !c->use_start || !def_off) goto done;
  uint32_t u = 0;
  for (uint32_t b = 0; b < nb; b++) {
    /* last_def[r] = site index of the latest def of r earlier in the block */
    for (uint32_t i = c->blocks[b].first; i < c->blocks[b].end; i++) {
      ws_analysis_inst_regs(f, &f->insts[i], defs, &nd, uses, &nu);
      c->use_start[i] = u;
      for (int k = 0; k < nu; k++) {
        ws_use *us = &c->uses[u++];
        us->inst = i;
        us->reg = uses[k];
        uint32_t r = uses[k];
        size_t start = def_used;
        int covered = 0;
        /* walk this block's earlier defs of r backwards */
        for (uint32_t e = reg_start[r + 1]; e-- > reg_start[r];) {
          uint32_t site = reg_sites[e];
          uint32_t di = site_inst[site];
          if (di >= i || di < c->blocks[b].first) continue;
          if (WS_VEC_PUSH(def_all, def_used, def_cap, di)) goto done;
          if (f->insts[di].guard < 0) {
            covered = 1;
            break;
          }
        }
        if (!covered) {
          const uint64_t *ib = in + (size_t)b * W;
          for (uint32_t e = reg_start[r]; e < reg_start[r + 1]; e++) {
            uint32_t site = reg_sites[e];
            if (((ib[site / 64] >> (site % 64)) & 1) &&
                WS_VEC_PUSH(def_all, def_used, def_cap, site_inst[site]))
              goto done;
          }
        }
        if (def_used - start > 1) qsort(def_all + start, def_used - start, sizeof *def_all, cmp_u32);
        size_t w = start;
        for (size_t q = start; q < def_used; q++)
          if (w == start || def_all[w - 1] != def_all[q]) def_all[w++] = def_all[q];
        def_used = w;
        def_off[u - 1] = start;
        us->ndefs = (uint32_t)(def_used - start);
      }
    }
  }
  c->nuses = u;
  c->use_start[n] = u;
  uint32_t *defs_kept = cmalloc(c, (def_used + 1) * sizeof *defs_kept);
  if (!defs_kept) goto done;
  if (def_used) memcpy(defs_kept, def_all, def_used * sizeof *defs_kept);
  for (uint32_t k = 0; k < u; k++) c->uses[k].defs = defs_kept + def_off[k];
  /* invert into def-use chains per defining instruction */
  c->du_start = cmalloc(c, (n + 2) * sizeof *c->du_start);
  c->du = cmalloc(c, (def_used + 1) * sizeof *c->du);
  if (!c->du_start || !c->du) goto done;
  for (uint32_t k = 0; k < u; k++)
    for (uint32_t e = 0; e < c->uses[k].ndefs; e++) c->du_start[c->uses[k].defs[e] + 1]++;
  for (uint32_t i = 0; i < n; i++) c->du_start[i + 1] += c->du_start[i];
  {
    uint32_t *fill = calloc(n + 1, sizeof *fill);
    if (!fill) goto done;
    for (uint32_t k = 0; k < u; k++)
      for (uint32_t e = 0; e < c->uses[k].ndefs; e++) {
        uint32_t di = c->uses[k].defs[e];
        c->du[c->du_start[di] + fill[di]++] = c->uses[k].inst;
      }
    free(fill);
  }
  /* uses were added in instruction order, so each chain is ascending;
   * drop repeats (an instruction reading two registers a def writes) */
  {
    uint32_t w = 0;
    uint32_t prev_start = 0;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t s0 = prev_start, s1 = c->du_start[i + 1];
      prev_start = s1;
      c->du_start[i] = w;
      for (uint32_t q = s0; q < s1; q++)
        if (w == c->du_start[i] || c->du[w - 1] != c->du[q]) c->du[w++] = c->du[q];
    }
    c->du_start[n] = w;
  }
  rc = 0;
done:
  free(site_inst); free(site_reg); free(reg_start); free(reg_sites);
  free(in); free(out); free(gen); free(kill); free(tmp); free(last_def);
  free(def_all); free(def_off);
  return rc;
}

/* --- ILP and MLP -------------------------------------------------------- */

static int block_ilp_mlp(ws_cfg *c) {
  const ws_ptx_function *f = c->func;
  uint32_t *stamp = calloc(f->nregs + 1, sizeof *stamp); /* group that wrote r */
  if (!stamp) return -1;
  uint32_t group_id = 0;
  uint32_t defs[WS_ANALYSIS_MAX_REGS], uses[WS_ANALYSIS_MAX_REGS];
  uint32_t ldefs[WS_ANALYSIS_MAX_REGS];
  int nd, nu, nld;
  for (uint32_t b = 0; b < c->nblocks; b++) {
    ws_bb *bb = &c->blocks[b];
    uint32_t ninst = bb->end - bb->first;
    bb->ngroups = 0;
    for (uint32_t i = bb->first; i < bb->end; i++) {
      ws_analysis_inst_regs(f, &f->insts[i], defs, &nd, uses, &nu);
      int dep = i == bb->first;
      for (int k = 0; k < nu && !dep; k++)
        if (stamp[uses[k]] == group_id) dep = 1;
      if (dep) {
        group_id++;
        bb->ngroups++;
      }
      for (int k = 0; k < nd; k++) stamp[defs[k]] = group_id;
    }
    bb->ilp = ninst ? (double)ninst / bb->ngroups : 0.0;
    /* MLP */
    double sum = 0;
    bb->nloads = 0;
    for (uint32_t i = bb->first; i < bb->end; i++) {
      if (!ws_analysis_is_mem_load(ws_analysis_class(&f->insts[i]))) continue;
      ws_analysis_inst_regs(f, &f->insts[i], ldefs, &nld, uses, &nu);
      uint32_t count = 1, j;
      for (j = i + 1; j < bb->end; j++) {
        ws_analysis_inst_regs(f, &f->insts[j], defs, &nd, uses, &nu);
        int reads = 0;
        for (int k = 0; k < nu && !reads; k++)
          for (int q = 0; q < nld && !reads; q++)
            if (uses[k] == ldefs[q]) reads = 1;
        if (reads) break;
        if (ws_analysis_is_mem_request(ws_analysis_class(&f->insts[j]))) count++;
      }
      sum += count;
      bb->nloads++;
    }
    bb->mlp = bb->nloads ? sum / bb->nloads : 0.0;
  }
  free(stamp);
  return 0;
}

/* --- build -------------------------------------------------------------- */

int ws_analysis_build(ws_cfg **out, const ws_ptx_module *m, const ws_ptx_function *f,
                      ws_diag *d) {
  *out = NULL;
  if (!f || !f->has_body) {
    ws_diag_error(d, "function '%s' has no body to analyze", f ? f->name : "?");
    return WS_EINVAL;
  }
  ws_cfg *c = calloc(1, sizeof *c);
  if (!c) return WS_ENOMEM;
  c->mem = calloc(1, sizeof(memlist));
  if (!c->mem) {
    free(c);
    return WS_ENOMEM;
  }
  c->module = m;
  c->func = f;
  uint32_t n = f->ninsts;
  uint8_t *leader = calloc(n + 1, 1);
  c->block_of = cmalloc(c, (n + 1) * sizeof *c->block_of);
  if (!leader || !c->block_of) goto oom;
  if (n) leader[0] = 1;
  for (uint32_t i = 0; i < f->nlabels; i++)
    if (f->labels[i].inst < n) leader[f->labels[i].inst] = 1;
  for (uint32_t i = 0; i + 1 < n; i++)
    if (is_terminator(&f->insts[i])) leader[i + 1] = 1;
  uint32_t nb = 0;
  for (uint32_t i = 0; i < n; i++) nb += leader[i];
  c->nblocks = nb;
  c->blocks = cmalloc(c, (nb + 1) * sizeof *c->blocks);
  if (!c->blocks) goto oom;
  uint32_t b = WS_CFG_NONE;
  for (uint32_t i = 0; i < n; i++) {
    if (leader[i]) {
      b = b == WS_CFG_NONE ? 0 : b + 1;
      c->blocks[b].first = i;
      c->blocks[b].line_first = f->insts[i].line;
    }
    c->blocks[b].end = i + 1;
    c->blocks[b].line_last = f->insts[i].line;
    c->block_of[i] = b;
    c->blocks[b].counts[ws_analysis_class(&f->insts[i])]++;
  }
  free(leader);
  leader = NULL;
  /* successors (brx.idx: every entry of its table, in table order) */
  uint32_t nedges = 0;
  for (b = 0; b < nb; b++) {
    ws_bb *bb = &c->blocks[b];
    const ws_ptx_inst *t = &f->insts[bb->end - 1];
    uint32_t fall = bb->end < n ? c->block_of[bb->end] : nb;
    ws_ptx_kind k = ws_ptx_opcode_kind((ws_ptx_opcode)t->op);
    const ws_ptx_btable *bt = NULL;
    if (t->op == WS_PTX_OP_BRX_IDX && t->nops >= 2 && t->ops[1].kind == WS_PTX_O_SYM &&
        t->ops[1].symkind == WS_PTX_S_BTABLE && t->ops[1].reg < f->nbtables)
      bt = &f->btables[t->ops[1].reg];
    uint32_t cap = 2 + (bt ? bt->ntargets : 0);
    bb->succ = cmalloc(c, cap * sizeof *bb->succ);
    if (!bb->succ) goto oom;
    uint32_t cand[2] = {fall, WS_CFG_NONE};
    uint32_t ncand = 1;
    if (k == WS_PTX_K_BRANCH) {
      if (bt) {
        ncand = 0;
        for (uint32_t e = 0; e < bt->ntargets; e++) {
          uint32_t ti = f->labels[bt->labels[e]].inst;
          uint32_t tb = ti < n ? c->block_of[ti] : nb;
          int dup = 0;
          for (uint32_t q = 0; q < bb->nsucc; q++) dup |= bb->succ[q] == tb;
          if (!dup) bb->succ[bb->nsucc++] = tb;
        }
      } else {
        uint32_t tgt = nb;
        if (t->op == WS_PTX_OP_BRA && t->ops[0].kind == WS_PTX_O_LABEL &&
            (uint64_t)t->ops[0].imm < n)
          tgt = c->block_of[t->ops[0].imm];
        cand[0] = tgt;
      }
      if (t->guard >= 0) cand[ncand++] = fall;
    } else if (k == WS_PTX_K_RETURN || k == WS_PTX_K_EXIT) {
      cand[0] = nb;
      if (t->guard >= 0) cand[ncand++] = fall;
    }
    for (uint32_t e = 0; e < ncand; e++) {
      int dup = 0;
      for (uint32_t q = 0; q < bb->nsucc; q++) dup |= bb->succ[q] == cand[e];
      if (!dup) bb->succ[bb->nsucc++] = cand[e];
    }
    nedges += bb->nsucc;
  }
  /* CSR successor/predecessor lists including the exit node nb */
  uint32_t N = nb + 1;
  uint32_t *ss = calloc(N + 1, sizeof *ss), *ps = calloc(N + 1, sizeof *ps);
  uint32_t *sl = malloc((nedges + 1) * sizeof *sl), *pl = malloc((nedges + 1) * sizeof *pl);
  uint32_t *fill = calloc(N + 1, sizeof *fill), *idom = malloc(N * sizeof *idom);
  if (!ss || !ps || !sl || !pl || !fill || !idom) {
    free(ss); free(ps); free(sl); free(pl); free(fill); free(idom);
    goto oom;
  }
  for (b = 0; b < nb; b++)
    for (uint32_t e = 0; e < c->blocks[b].nsucc; e++) {
      ss[b + 1]++;
      ps[c->blocks[b].succ[e] + 1]++;
    }
  for (uint32_t i = 0; i < N; i++) {
    ss[i + 1] += ss[i];
    ps[i + 1] += ps[i];
  }
  for (b = 0; b < nb; b++)
    for (uint32_t e = 0; e < c->blocks[b].nsucc; e++) {
      uint32_t s = c->blocks[b].succ[e];
      sl[ss[b] + e] = s;
      pl[ps[s] + fill[s]++] = b;
    }
  int err = 0;
  for (b = 0; b < nb && !err; b++) {
    ws_bb *bb = &c->blocks[b];
    bb->npred = ps[b + 1] - ps[b];
    bb->pred = cmalloc(c, (bb->npred + 1) * sizeof *bb->pred);
    if (!bb->pred) err = 1;
    else memcpy(bb->pred, pl + ps[b], bb->npred * sizeof *bb->pred);
  }
  if (!err && nb) {
    err = compute_idom(N, 0, ss, sl, ps, pl, idom) < 0;
    for (b = 0; b < nb && !err; b++) {
      c->blocks[b].reachable = idom[b] != WS_CFG_NONE;
      c->blocks[b].idom = b == 0 || idom[b] == WS_CFG_NONE ? WS_CFG_NONE : idom[b];
    }
    if (!err) c->blocks[0].reachable = 1;
    /* post-dominators: the reversed graph rooted at the exit */
    if (!err) err = compute_idom(N, nb, ps, pl, ss, sl, idom) < 0;
    for (b = 0; b < nb && !err; b++)
      c->blocks[b].ipdom = idom[b] == WS_CFG_NONE ? nb : idom[b];
  }
  free(ss); free(ps); free(sl); free(pl); free(fill); free(idom);
  if (err) goto oom;
  if (build_loops(c) < 0 || build_defuse(c) < 0 || block_ilp_mlp(c) < 0) goto oom;
  if (c->regs_cut) {
    const ws_ptx_inst *ci = &f->insts[c->first_cut];
    ws_diag_add(d, WS_SEV_WARNING, m->path, (int)ci->line, (int)ci->col,
                "def-use chains of '%s' are incomplete: %u instruction%s name%s more than %d registers "
                "(WS_ANALYSIS_MAX_REGS), and the registers past the limit are left out; this is the first",
                f->name, c->regs_cut, c->regs_cut == 1 ? "" : "s", c->regs_cut == 1 ? "s" : "",
                WS_ANALYSIS_MAX_REGS);
  }
  *out = c;
  return WS_OK;
oom:
  free(leader);
  ws_analysis_free(c);
  ws_diag_error(d, "out of memory while analyzing '%s'", f->name);
  return WS_ENOMEM;
}
