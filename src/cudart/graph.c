/*
 * graph.c — CUDA graphs: explicit construction (kernel, memcpy, memset,
 * host, empty, child-graph and event nodes, and their dependencies), the
 * graphs stream capture records (stream.c), instantiation and launch.
 *
 * A node holds one rt_op (rt.h), the operation a stream would run; a
 * launched graph runs its nodes one at a time in a topological order
 * (Kahn's, ties in creation order), so every node runs after the nodes it
 * depends on, and each kernel node is profiled and predicted like any
 * launch (launch.c).  An instantiated graph (cudaGraphExec_t) is a deep
 * copy made at instantiation, its nodes in that order, so that later edits
 * of the graph do not change it, as in CUDA; cudaGraphExec*SetParams
 * changes its copy of a node.
 *
 * Handles are the records' addresses, checked against the live graphs
 * (ws_rt.graphs) before use: a destroyed or foreign handle is
 * cudaErrorInvalidValue, never a use after free.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/exports.h"
#include "cudart/rt.h"
#include "util/strbuf.h"
#include "util/vec.h"

typedef struct rt_gnode {
  rt_op op;                  /* what it does (owns kernel parameters, child graph) */
  struct rt_graph *graph;    /* the graph it belongs to */
  struct rt_gnode **deps;    /* the nodes it runs after */
  size_t ndeps, cap_deps;
  struct rt_gnode *orig;     /* in a copy (instantiated, cloned): the node copied */
  void **argv;               /* kernel nodes: one pointer per parameter into
                                op.u.k.params (cudaGraphKernelNodeGetParams), or NULL */
  size_t order;              /* position in its graph's node list */
  int disabled;              /* cudaGraphNodeSetEnabled(0) in an instantiated graph */
} rt_gnode;

typedef struct rt_graph {
  rt_gnode **nodes;          /* creation order (an instantiated graph: run order) */
  size_t n, cap;
  int exec;                  /* 1: instantiated (cudaGraphExec_t) */
  unsigned long long flags;  /* instantiation flags */
  struct rt_graph *next;     /* the rest of ws_rt.graphs */
} rt_graph;

rt_graph *rt_graph_new(ws_rt *rt) {
  rt_graph *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->next = rt->graphs;
  rt->graphs = g;
  return g;
}

static void node_free(ws_rt *rt, rt_gnode *n) {
  if (n->op.kind == RT_OP_GRAPH) rt_graph_free(rt, n->op.u.child);
  rt_op_free(&n->op);
  free(n->argv);
  free(n->deps);
  free(n);
}

void rt_graph_free(ws_rt *rt, rt_graph *g) {
  if (!g) return;
  for (rt_graph **p = &rt->graphs; *p; p = &(*p)->next)
    if (*p == g) {
      *p = g->next;
      break;
    }
  for (size_t i = 0; i < g->n; i++) node_free(rt, g->nodes[i]);
  free(g->nodes);
  free(g);
}

void rt_graph_free_all(ws_rt *rt) {
  while (rt->graphs) rt_graph_free(rt, rt->graphs);
}

static rt_graph *find_graph(ws_rt *rt, const void *h, int exec) {
  for (rt_graph *g = rt->graphs; g; g = g->next)
    if (g == h) return g->exec == exec ? g : NULL;
  return NULL;
}

/* A live graph (exec 0) or instantiated graph (exec 1) of a handle,
 * locked (rt_done ends); cudaErrorInvalidValue for a foreign or destroyed
 * one. */
static cudaError_t graph_of(const void *h, int exec, rt_graph **out) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  *out = e ? NULL : find_graph(rt, h, exec);
  if (!e && !*out) e = cudaErrorInvalidValue;
  return e;
}

/* A node handle of a live graph (of any graph when g is NULL). */
static rt_gnode *find_node(ws_rt *rt, rt_graph *g, const void *h) {
  for (rt_graph *x = g ? g : rt->graphs; x; x = g ? NULL : x->next)
    for (size_t i = 0; h && i < x->n; i++)
      if (x->nodes[i] == h) return x->nodes[i];
  return NULL;
}

/* Deep-copy a child graph (CUDA copies it into the node). */
static rt_graph *graph_copy(ws_rt *rt, const rt_graph *src, int exec);

cudaError_t rt_graph_add(ws_rt *rt, rt_graph *g, const rt_op *op, rt_gnode *const *deps,
                         size_t ndeps, rt_gnode **out) {
  rt_gnode *n = calloc(1, sizeof *n);
  if (!n || WS_VEC_RESERVE(g->nodes, g->cap, g->n + 1) || rt_op_copy(&n->op, op)) {
    free(n);
    return cudaErrorMemoryAllocation;
  }
  if (op->kind == RT_OP_GRAPH && !(n->op.u.child = graph_copy(rt, op->u.child, 0))) {
    free(n);
    return cudaErrorMemoryAllocation;
  }
  n->graph = g;
  for (size_t i = 0; i < ndeps; i++)
    if (WS_VEC_PUSH(n->deps, n->ndeps, n->cap_deps, deps[i])) {
      node_free(rt, n);
      return cudaErrorMemoryAllocation;
    }
  n->order = g->n;
  g->nodes[g->n++] = n;
  if (out) *out = n;
  return cudaSuccess;
}

/* Copy src's nodes (and edges) into a new graph; exec: in a topological
 * order, refusing a cycle.  NULL when out of memory or cyclic. */
static rt_graph *graph_copy(ws_rt *rt, const rt_graph *src, int exec) {
  rt_graph *g = rt_graph_new(rt);
  size_t n = src->n, done = 0;
  size_t *indeg = calloc(n ? n : 1, sizeof *indeg), *list = calloc(n ? n : 1, sizeof *list);
  rt_gnode **copy = calloc(n ? n : 1, sizeof *copy);
  int ok = g && indeg && list && copy;
  for (size_t i = 0; ok && i < n; i++) indeg[i] = src->nodes[i]->ndeps;
  /* Kahn: repeatedly take the first node all of whose dependencies are
   * placed (a plain copy keeps creation order, edges only need the map) */
  while (ok && done < n) {
    size_t pick = n;
    for (size_t i = 0; i < n && pick == n; i++)
      if (!copy[i] && (!exec || indeg[i] == 0)) pick = i;
    if (pick == n) {
      ok = 0; /* a cycle */
      break;
    }
    const rt_gnode *s = src->nodes[pick];
    ok = rt_graph_add(rt, g, &s->op, NULL, 0, &copy[pick]) == cudaSuccess;
    if (ok) copy[pick]->orig = (rt_gnode *)s;
    list[done++] = pick;
    for (size_t j = 0; ok && exec && j < n; j++)
      for (size_t k = 0; k < src->nodes[j]->ndeps; k++)
        if (src->nodes[j]->deps[k] == s) indeg[j]--;
  }
  for (size_t i = 0; ok && i < n; i++) { /* the edges, through the map */
    const rt_gnode *s = src->nodes[list[i]];
    for (size_t k = 0; ok && k < s->ndeps; k++)
      ok = !WS_VEC_PUSH(copy[list[i]]->deps, copy[list[i]]->ndeps, copy[list[i]]->cap_deps,
                        copy[s->deps[k]->order]);
  }
  free(indeg), free(list), free(copy);
  if (!ok) {
    rt_graph_free(rt, g);
    return NULL;
  }
  g->exec = exec;
  return g;
}

int rt_graph_is_ancestor(rt_gnode *a, rt_gnode *b);
/* Is a an ancestor of b (reached by following b's dependencies)? */
int rt_graph_is_ancestor(rt_gnode *a, rt_gnode *b) {
  for (size_t i = 0; i < b->ndeps; i++)
    if (b->deps[i] == a || rt_graph_is_ancestor(a, b->deps[i])) return 1;
  return 0;
}

cudaError_t rt_graph_run(ws_rt *rt, rt_graph *g) {
  rt_graph *order = g->exec ? g : graph_copy(rt, g, 1); /* a child graph: sort it now */
  if (!order) return cudaErrorInvalidValue;
  cudaError_t e = cudaSuccess;
  for (size_t i = 0; i < order->n && !e; i++)
    if (!order->nodes[i]->disabled) e = rt_op_run(rt, &order->nodes[i]->op);
  if (order != g) rt_graph_free(rt, order);
  return e;
}

/* --- construction ------------------------------------------------------------ */

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags) {
  if (!pGraph || flags) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_graph *g = e ? NULL : rt_graph_new(rt);
  if (!e && !g) e = cudaErrorMemoryAllocation;
  if (!e) *pGraph = (cudaGraph_t)g;
  return rt_done(e);
}

/* Destroy a graph (exec 0) or an instantiated one (1). */
static cudaError_t graph_destroy(const void *h, int exec) {
  rt_graph *g;
  cudaError_t e = graph_of(h, exec, &g);
  if (!e) rt_graph_free(&ws_rt_state, g);
  return rt_done(e);
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) { return graph_destroy(graph, 0); }

/* Add op to graph after deps (each a node of that graph).  Returns with the
 * lock held: the caller ends with rt_done. */
static cudaError_t add_node(cudaGraphNode_t *out, cudaGraph_t graph, const cudaGraphNode_t *deps,
                            size_t ndeps, const rt_op *op) {
  ws_rt *rt = rt_enter();
  cudaError_t e = !out || (ndeps && !deps) ? cudaErrorInvalidValue : rt_sticky(rt);
  rt_graph *g = e ? NULL : find_graph(rt, graph, 0);
  if (!e && !g) e = cudaErrorInvalidValue;
  for (size_t i = 0; !e && i < ndeps; i++)
    if (!find_node(rt, g, deps[i])) e = cudaErrorInvalidValue;
  for (size_t i = 0; !e && i < ndeps; i++) /* no duplicate dependency */
    for (size_t j = 0; j < i; j++)
      if (deps[i] == deps[j]) e = cudaErrorInvalidValue;
  if (!e && op->kind == RT_OP_GRAPH && !find_graph(rt, op->u.child, 0)) e = cudaErrorInvalidValue;
  if (!e) e = rt_graph_add(rt, g, op, (rt_gnode *const *)deps, ndeps, (rt_gnode **)out);
  return e;
}

/* A kernel node's op: the kernel's parameters packed now (CUDA copies them
 * at this call).  Returns with the lock held (add_node's convention). */
static cudaError_t kernel_op(ws_rt *rt, const cudaKernelNodeParams *p, rt_op *op,
                             unsigned char *buf) {
  if (!p) return cudaErrorInvalidValue;
  if (p->extra) return rt_unsupported("kernel node parameters given through 'extra'");
  rt_func *f = rt_find_func(rt, p->func);
  if (!f) return cudaErrorInvalidDeviceFunction;
  cudaError_t e = rt_check_config(rt, f, p->gridDim, p->blockDim, p->sharedMemBytes);
  size_t used = 0;
  if (!e) e = rt_pack(rt, f, p->kernelParams, buf, RT_PARAM_BYTES, &used);
  *op = (rt_op){.kind = RT_OP_KERNEL};
  op->u.k.func = (size_t)(f - rt->funcs);
  op->u.k.grid = p->gridDim;
  op->u.k.block = p->blockDim;
  op->u.k.shared = p->sharedMemBytes;
  op->u.k.params = buf;
  op->u.k.params_bytes = used;
  return e;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t ndeps,
                                   const cudaKernelNodeParams *p) {
  static _Thread_local unsigned char buf[RT_PARAM_BYTES];
  ws_rt *rt = rt_enter();
  rt_op op;
  cudaError_t e = rt_sticky(rt);
  if (!e) e = kernel_op(rt, p, &op, buf);
  if (!e) {
    e = add_node(out, graph, deps, ndeps, &op);
    rt_leave();
  }
  return rt_done(e);
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t ndeps,
                                   const cudaMemcpy3DParms *p) {
  if (!p) return rt_error(cudaErrorInvalidValue);
  rt_op op = {.kind = RT_OP_COPY, .u.copy = *p};
  cudaError_t e = add_node(out, graph, deps, ndeps, &op);
  return rt_done(e);
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *out, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t ndeps, void *dst,
                                     const void *src, size_t count, int kind) {
  cudaMemcpy3DParms p = {0};
  p.srcPtr = (cudaPitchedPtr){(void *)(uintptr_t)src, count, count, 1};
  p.dstPtr = (cudaPitchedPtr){dst, count, count, 1};
  p.extent = (cudaExtent){count, 1, 1};
  p.kind = kind;
  return cudaGraphAddMemcpyNode(out, graph, deps, ndeps, &p);
}

static cudaError_t check_memset(const void *pv) {
  const cudaMemsetParams *p = pv;
  if (!p || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4))
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t ndeps,
                                   const cudaMemsetParams *p) {
  cudaError_t e = check_memset(p);
  if (e) return rt_error(e);
  rt_op op = {.kind = RT_OP_SET, .u.set = *p};
  e = add_node(out, graph, deps, ndeps, &op);
  return rt_done(e);
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                 const cudaGraphNode_t *deps, size_t ndeps,
                                 const cudaHostNodeParams *p) {
  if (!p || !p->fn) return rt_error(cudaErrorInvalidValue);
  rt_op op = {.kind = RT_OP_HOST, .u.host = *p};
  cudaError_t e = add_node(out, graph, deps, ndeps, &op);
  return rt_done(e);
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                  const cudaGraphNode_t *deps, size_t ndeps) {
  rt_op op = {.kind = RT_OP_EMPTY};
  cudaError_t e = add_node(out, graph, deps, ndeps, &op);
  return rt_done(e);
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                       const cudaGraphNode_t *deps, size_t ndeps,
                                       cudaGraph_t child) {
  rt_op op = {.kind = RT_OP_GRAPH, .u.child = (rt_graph *)child};
  cudaError_t e = add_node(out, graph, deps, ndeps, &op);
  return rt_done(e);
}

static cudaError_t event_node(cudaGraphNode_t *out, cudaGraph_t graph, const cudaGraphNode_t *deps,
                              size_t ndeps, cudaEvent_t event, rt_op_kind kind) {
  ws_rt *rt = rt_enter();
  rt_event *ev = rt_find_event(rt, event);
  rt_leave();
  if (!ev) return rt_error(cudaErrorInvalidResourceHandle);
  rt_op op = {.kind = kind, .u.event = ev};
  cudaError_t e = add_node(out, graph, deps, ndeps, &op);
  return rt_done(e);
}
cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                        const cudaGraphNode_t *deps, size_t ndeps,
                                        cudaEvent_t event) {
  return event_node(out, graph, deps, ndeps, event, RT_OP_EVENT_RECORD);
}
cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                      const cudaGraphNode_t *deps, size_t ndeps,
                                      cudaEvent_t event) {
  return event_node(out, graph, deps, ndeps, event, RT_OP_EVENT_WAIT);
}

/* --- memory nodes ----------------------------------------------------------------
 * An allocation node allocates when it is added, and its address is the
 * graph's for the process's life (rt_alloc.graph): CUDA too gives the
 * address at this call and keeps it for every launch, so a program may use
 * it after the graph ran, free it outside the graph (cudaFree,
 * cudaFreeAsync) or in another graph's free node, and launch the graph
 * again at the same address.  Since every operation has finished when its
 * call returns, the nodes have nothing left to do when they run; a free
 * releases nothing, so the memory stays in use until exit. */

static cudaError_t node_of(cudaGraphNode_t node, rt_op_kind kind, const void *p, rt_gnode **out);

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t ndeps,
                                     cudaMemAllocNodeParams *p) {
  if (!p || !p->bytesize || p->poolProps.allocType != cudaMemAllocationTypePinned ||
      p->poolProps.location.type != cudaMemLocationTypeDevice || p->poolProps.location.id != 0)
    return rt_error(cudaErrorInvalidValue);
  rt_op op = {.kind = RT_OP_MEM_ALLOC, .u.mem = {0, p->bytesize}};
  cudaError_t e = add_node(out, graph, deps, ndeps, &op);
  if (e) return rt_done(e);
  ws_rt *rt = &ws_rt_state;
  rt_gnode *n = (rt_gnode *)*out;
  uint64_t a = 0;
  e = rt_dev_alloc(rt, &a, p->bytesize, "cudaGraphAddMemAllocNode", NULL);
  if (e) { /* no memory: take the node back out (the last one added) */
    n->graph->n--;
    node_free(rt, n);
    return rt_done(e);
  }
  rt_find_alloc(rt, a)->graph = 1;
  n->op.u.mem.addr = a;
  p->dptr = (void *)(uintptr_t)a;
  return rt_done(e);
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                    const cudaGraphNode_t *deps, size_t ndeps, void *dptr) {
  ws_rt *rt = rt_enter();
  /* a graph's allocation only, by its start address, as in CUDA */
  rt_alloc *a = rt_graph_alloc(rt, (uint64_t)(uintptr_t)dptr);
  int ok = a != NULL;
  rt_op op = {.kind = RT_OP_MEM_FREE, .u.mem = {ok ? a->addr : 0, ok ? a->bytes : 0}};
  rt_leave();
  if (!ok) return rt_error(cudaErrorInvalidValue);
  cudaError_t e = add_node(out, graph, deps, ndeps, &op);
  return rt_done(e);
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, cudaMemAllocNodeParams *p) {
  rt_gnode *n;
  cudaError_t e = node_of(node, RT_OP_MEM_ALLOC, p, &n);
  if (!e) {
    memset(p, 0, sizeof *p);
    p->poolProps.allocType = cudaMemAllocationTypePinned;
    p->poolProps.location.type = cudaMemLocationTypeDevice;
    p->bytesize = (size_t)n->op.u.mem.bytes;
    p->dptr = (void *)(uintptr_t)n->op.u.mem.addr;
  }
  return rt_done(e);
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out) {
  rt_gnode *n;
  cudaError_t e = node_of(node, RT_OP_MEM_FREE, dptr_out, &n);
  if (!e) *(void **)dptr_out = (void *)(uintptr_t)n->op.u.mem.addr;
  return rt_done(e);
}

/* --- edges ---------------------------------------------------------------------- */

static cudaError_t edges(cudaGraph_t graph, const cudaGraphNode_t *from,
                         const cudaGraphNode_t *to, size_t n, int add) {
  if (n && (!from || !to)) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = &ws_rt_state;
  rt_graph *g;
  cudaError_t e = graph_of(graph, 0, &g);
  for (size_t i = 0; !e && i < n; i++)
    if (!find_node(rt, g, from[i]) || !find_node(rt, g, to[i]) || from[i] == to[i])
      e = cudaErrorInvalidValue;
  for (size_t i = 0; !e && i < n; i++) {
    rt_gnode *f = (rt_gnode *)from[i], *t = (rt_gnode *)to[i];
    size_t k = 0;
    while (k < t->ndeps && t->deps[k] != f) k++;
    int exists = k < t->ndeps;
    if (add == exists)
      e = cudaErrorInvalidValue; /* the edge exists already, or not at all */
    else if (add && WS_VEC_PUSH(t->deps, t->ndeps, t->cap_deps, f))
      e = cudaErrorMemoryAllocation;
    else if (!add)
      t->deps[k] = t->deps[--t->ndeps];
  }
  return rt_done(e);
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                     const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                     size_t n) {
  (void)edgeData; /* default edges only */
  return edges(graph, from, to, n, 1);
}

cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                        const cudaGraphNode_t *to,
                                        const cudaGraphEdgeData *edgeData, size_t n) {
  (void)edgeData;
  return edges(graph, from, to, n, 0);
}

cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_gnode *n = e ? NULL : find_node(rt, NULL, node);
  if (!e && (!n || n->graph->exec)) e = cudaErrorInvalidValue;
  if (!e) {
    rt_graph *g = n->graph;
    for (size_t i = 0; i < g->n; i++) { /* drop the edges to it */
      rt_gnode *x = g->nodes[i];
      for (size_t k = 0; k < x->ndeps; k++)
        if (x->deps[k] == n) x->deps[k--] = x->deps[--x->ndeps];
    }
    for (size_t i = n->order + 1; i < g->n; i++) {
      g->nodes[i - 1] = g->nodes[i];
      g->nodes[i - 1]->order = i - 1;
    }
    g->n--;
    node_free(rt, n);
  }
  return rt_done(e);
}

/* --- queries ------------------------------------------------------------------------ */

/* CUDA's listing convention: with out NULL, *count is set to how many there
 * are; else up to *count are written and *count is the number written. */
static void list_out(cudaGraphNode_t *out, size_t *count, rt_gnode *const *v, size_t n) {
  if (out) {
    size_t k = n < *count ? n : *count;
    for (size_t i = 0; i < k; i++) out[i] = (cudaGraphNode_t)v[i];
    for (size_t i = k; i < *count; i++) out[i] = NULL;
    *count = k;
  } else {
    *count = n;
  }
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *num) {
  if (!num) return rt_error(cudaErrorInvalidValue);
  rt_graph *g;
  cudaError_t e = graph_of(graph, 0, &g);
  if (!e) list_out(nodes, num, g->nodes, g->n);
  return rt_done(e);
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *num) {
  if (!num) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_graph *g = e ? NULL : find_graph(rt, graph, 0);
  rt_gnode **roots = g ? calloc(g->n ? g->n : 1, sizeof *roots) : NULL;
  size_t nr = 0;
  if (!e && !g) e = cudaErrorInvalidValue;
  if (!e && !roots) e = cudaErrorMemoryAllocation;
  for (size_t i = 0; !e && i < g->n; i++)
    if (!g->nodes[i]->ndeps) roots[nr++] = g->nodes[i];
  if (!e) list_out(nodes, num, roots, nr);
  free(roots);
  return rt_done(e);
}

cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                              cudaGraphEdgeData *edgeData, size_t *num) {
  if (!num || (!from) != (!to)) return rt_error(cudaErrorInvalidValue);
  rt_graph *g;
  cudaError_t e = graph_of(graph, 0, &g);
  size_t k = 0;
  for (size_t i = 0; !e && i < g->n; i++)
    for (size_t d = 0; d < g->nodes[i]->ndeps; d++, k++)
      if (from && k < *num) {
        from[k] = (cudaGraphNode_t)g->nodes[i]->deps[d];
        to[k] = (cudaGraphNode_t)g->nodes[i];
        if (edgeData) memset(&edgeData[k], 0, sizeof *edgeData);
      }
  if (!e) *num = from && k > *num ? *num : k;
  return rt_done(e);
}

/* A live node of kind `kind` (RT_OP_ANY: any), locked (rt_done ends);
 * cudaErrorInvalidValue for a foreign or destroyed node, another kind, or
 * p NULL (the caller's output or input). */
#define RT_OP_ANY ((rt_op_kind)-1)
static cudaError_t node_of(cudaGraphNode_t node, rt_op_kind kind, const void *p, rt_gnode **out) {
  ws_rt *rt = rt_enter();
  rt_gnode *n = find_node(rt, NULL, node);
  cudaError_t e = rt_sticky(rt);
  if (!e && (!p || !n || (kind != RT_OP_ANY && n->op.kind != kind))) e = cudaErrorInvalidValue;
  *out = n;
  return e;
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, int *type) {
  static const int types[RT_OP_MEM_FREE + 1] = {
      [RT_OP_KERNEL] = cudaGraphNodeTypeKernel,       [RT_OP_COPY] = cudaGraphNodeTypeMemcpy,
      [RT_OP_SET] = cudaGraphNodeTypeMemset,          [RT_OP_HOST] = cudaGraphNodeTypeHost,
      [RT_OP_EMPTY] = cudaGraphNodeTypeEmpty,         [RT_OP_GRAPH] = cudaGraphNodeTypeGraph,
      [RT_OP_EVENT_RECORD] = cudaGraphNodeTypeEventRecord,
      [RT_OP_EVENT_WAIT] = cudaGraphNodeTypeWaitEvent,
      [RT_OP_MEM_ALLOC] = cudaGraphNodeTypeMemAlloc,  [RT_OP_MEM_FREE] = cudaGraphNodeTypeMemFree};
  rt_gnode *n;
  cudaError_t e = node_of(node, RT_OP_ANY, type, &n);
  if (!e) *type = types[n->op.kind];
  return rt_done(e);
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *deps,
                                         cudaGraphEdgeData *edgeData, size_t *num) {
  rt_gnode *n;
  cudaError_t e = node_of(node, RT_OP_ANY, num, &n);
  if (!e) {
    list_out(deps, num, n->deps, n->ndeps);
    if (deps && edgeData) memset(edgeData, 0, *num * sizeof *edgeData);
  }
  return rt_done(e);
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *out,
                                           cudaGraphEdgeData *edgeData, size_t *num) {
  rt_gnode *n;
  cudaError_t e = node_of(node, RT_OP_ANY, num, &n);
  rt_gnode **v = !e ? calloc(n->graph->n ? n->graph->n : 1, sizeof *v) : NULL;
  size_t k = 0;
  if (!e && !v) e = cudaErrorMemoryAllocation;
  for (size_t i = 0; !e && i < n->graph->n; i++)
    for (size_t d = 0; d < n->graph->nodes[i]->ndeps; d++)
      if (n->graph->nodes[i]->deps[d] == n) v[k++] = n->graph->nodes[i];
  if (!e) {
    list_out(out, num, v, k);
    if (out && edgeData) memset(edgeData, 0, *num * sizeof *edgeData);
  }
  free(v);
  return rt_done(e);
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams *p) {
  rt_gnode *n;
  cudaError_t e = node_of(node, RT_OP_KERNEL, p, &n);
  ws_rt *rt = &ws_rt_state;
  rt_func *f = e ? NULL : &rt->funcs[n->op.u.k.func];
  const ws_ptx_function *k = f && f->prog ? ws_emu_program_kernel(f->prog) : NULL;
  /* kernelParams point into the node's packed copy: one pointer per
   * parameter, at its offset (kept with the node until it changes) */
  if (!e && k && !n->argv && k->nparams) {
    n->argv = calloc(k->nparams, sizeof *n->argv);
    for (uint32_t i = 0; n->argv && i < k->nparams; i++)
      n->argv[i] = n->op.u.k.params + k->params[i].offset;
    if (!n->argv) e = cudaErrorMemoryAllocation;
  }
  if (!e) {
    memset(p, 0, sizeof *p);
    p->kernelParams = n->argv;
    p->func = (void *)(uintptr_t)f->host_fun;
    p->gridDim = n->op.u.k.grid;
    p->blockDim = n->op.u.k.block;
    p->sharedMemBytes = (unsigned)n->op.u.k.shared;
  }
  return rt_done(e);
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams *p) {
  static _Thread_local unsigned char buf[RT_PARAM_BYTES];
  rt_gnode *n;
  rt_op op;
  cudaError_t e = node_of(node, RT_OP_KERNEL, p, &n);
  if (!e) e = kernel_op(&ws_rt_state, p, &op, buf);
  rt_op fresh;
  if (!e && rt_op_copy(&fresh, &op)) e = cudaErrorMemoryAllocation;
  if (!e) {
    rt_op_free(&n->op);
    n->op = fresh;
    free(n->argv);
    n->argv = NULL;
  }
  return rt_done(e);
}

static cudaError_t exec_node(cudaGraphExec_t exec, cudaGraphNode_t node, rt_op_kind kind,
                             const void *p, rt_gnode **out);

/* Read or write the parameters of a node of kind `kind` (the member of its
 * op's union, at the union's start, of `size` bytes): of a graph's node, or
 * with exec of its instantiated copy.  `check` vets what is written. */
static cudaError_t node_params(cudaGraphExec_t exec, cudaGraphNode_t node, rt_op_kind kind,
                               void *out, const void *in, size_t size,
                               cudaError_t (*check)(const void *)) {
  rt_gnode *n;
  const void *p = out ? (const void *)out : in;
  cudaError_t e = exec ? exec_node(exec, node, kind, p, &n) : node_of(node, kind, p, &n);
  if (!e && in && check) e = check(in);
  if (!e && out) memcpy(out, &n->op.u, size);
  if (!e && in) memcpy(&n->op.u, in, size);
  return rt_done(e);
}

static cudaError_t check_host(const void *p) {
  return ((const cudaHostNodeParams *)p)->fn ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, cudaMemcpy3DParms *p) {
  return node_params(NULL, node, RT_OP_COPY, p, NULL, sizeof *p, NULL);
}
cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const cudaMemcpy3DParms *p) {
  return node_params(NULL, node, RT_OP_COPY, NULL, p, sizeof *p, NULL);
}
cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, cudaMemsetParams *p) {
  return node_params(NULL, node, RT_OP_SET, p, NULL, sizeof *p, NULL);
}
cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const cudaMemsetParams *p) {
  return node_params(NULL, node, RT_OP_SET, NULL, p, sizeof *p, check_memset);
}
cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, cudaHostNodeParams *p) {
  return node_params(NULL, node, RT_OP_HOST, p, NULL, sizeof *p, NULL);
}
cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const cudaHostNodeParams *p) {
  return node_params(NULL, node, RT_OP_HOST, NULL, p, sizeof *p, check_host);
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph) {
  rt_gnode *n;
  cudaError_t e = node_of(node, RT_OP_GRAPH, pGraph, &n);
  if (!e) *pGraph = (cudaGraph_t)n->op.u.child;
  return rt_done(e);
}

/* A copy of a graph handle's graph (exec: instantiated, in a topological
 * order), locked (rt_done ends): cudaErrorInvalidValue for a foreign
 * handle, or a cycle when instantiating; cudaErrorMemoryAllocation. */
static cudaError_t copy_of(cudaGraph_t graph, int exec, rt_graph **out) {
  rt_graph *g;
  cudaError_t e = graph_of(graph, 0, &g);
  *out = e ? NULL : graph_copy(&ws_rt_state, g, exec);
  if (!e && !*out) e = exec ? cudaErrorInvalidValue : cudaErrorMemoryAllocation;
  return e;
}

cudaError_t cudaGraphClone(cudaGraph_t *pClone, cudaGraph_t original) {
  if (!pClone) return rt_error(cudaErrorInvalidValue);
  rt_graph *c;
  cudaError_t e = copy_of(original, 0, &c);
  if (!e) *pClone = (cudaGraph_t)c;
  return rt_done(e);
}

cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t original,
                                     cudaGraph_t clone) {
  if (!pNode) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_graph *g = e ? NULL : find_graph(rt, clone, 0);
  rt_gnode *found = NULL;
  for (size_t i = 0; g && i < g->n && !found; i++)
    if (g->nodes[i]->orig == (rt_gnode *)original) found = g->nodes[i];
  if (!e && !found) e = cudaErrorInvalidValue;
  if (!e) *pNode = (cudaGraphNode_t)found;
  return rt_done(e);
}

/* --- instantiation and launch --------------------------------------------------------- */

static cudaError_t instantiate(cudaGraphExec_t *out, cudaGraph_t graph, unsigned long long flags,
                               int *result) {
  if (result) *result = cudaGraphInstantiateError;
  if (!out) return rt_error(cudaErrorInvalidValue);
  rt_graph *x;
  cudaError_t e = copy_of(graph, 1, &x);
  if (!e) {
    x->flags = flags;
    *out = (cudaGraphExec_t)x;
    if (result) *result = cudaGraphInstantiateSuccess;
  }
  return rt_done(e);
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *out, cudaGraph_t graph, unsigned long long flags) {
  return instantiate(out, graph, flags, NULL);
}
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *out, cudaGraph_t graph,
                                          unsigned long long flags) {
  return instantiate(out, graph, flags, NULL);
}
cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *out, cudaGraph_t graph,
                                           cudaGraphInstantiateParams *p) {
  if (!p) return rt_error(cudaErrorInvalidValue);
  p->errNode_out = NULL;
  return instantiate(out, graph, p->flags, &p->result_out);
}
cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *out, cudaGraph_t graph,
                                                cudaGraphInstantiateParams *p) {
  return cudaGraphInstantiateWithParams(out, graph, p);
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) { return graph_destroy(exec, 1); }

cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t exec, unsigned long long *flags) {
  if (!flags) return rt_error(cudaErrorInvalidValue);
  rt_graph *x;
  cudaError_t e = graph_of(exec, 1, &x);
  if (!e) *flags = x->flags;
  return rt_done(e);
}

/* Launched into a capturing stream, the graph becomes a child-graph node. */
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  ws_rt *rt = &ws_rt_state;
  rt_graph *x;
  cudaError_t e = graph_of(exec, 1, &x);
  rt_op op = {.kind = RT_OP_GRAPH, .u.child = x};
  if (!e) e = rt_submit(rt, stream, &op);
  return rt_done(e);
}
cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t exec, cudaStream_t stream) {
  return cudaGraphLaunch(exec, stream);
}

/* Nothing to upload: a launch reads the instantiated graph directly. */
cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream) {
  ws_rt *rt = rt_enter();
  rt_stream *s;
  cudaError_t e = rt_sticky(rt);
  if (!e && !find_graph(rt, exec, 1)) e = cudaErrorInvalidValue;
  if (!e) e = rt_find_stream(rt, stream, &s);
  return rt_done(e);
}
cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t exec, cudaStream_t stream) {
  return cudaGraphUpload(exec, stream);
}

/* The instantiated copy of `node` in exec, locked (rt_done ends). */
static cudaError_t exec_node(cudaGraphExec_t exec, cudaGraphNode_t node, rt_op_kind kind,
                             const void *p, rt_gnode **out) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_graph *x = e ? NULL : find_graph(rt, exec, 1);
  *out = NULL;
  for (size_t i = 0; x && i < x->n && !*out; i++)
    if (x->nodes[i]->orig == (rt_gnode *)node) *out = x->nodes[i];
  if (!e && (!p || !*out || (*out)->op.kind != kind)) e = cudaErrorInvalidValue;
  return e;
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams *p) {
  static _Thread_local unsigned char buf[RT_PARAM_BYTES];
  rt_gnode *n;
  rt_op op, fresh;
  cudaError_t e = exec_node(exec, node, RT_OP_KERNEL, p, &n);
  if (!e) e = kernel_op(&ws_rt_state, p, &op, buf);
  if (!e && op.u.k.func != n->op.u.k.func) e = cudaErrorInvalidValue; /* same kernel only */
  if (!e && rt_op_copy(&fresh, &op)) e = cudaErrorMemoryAllocation;
  if (!e) {
    rt_op_free(&n->op);
    n->op = fresh;
  }
  return rt_done(e);
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaMemcpy3DParms *p) {
  if (!exec) return rt_error(cudaErrorInvalidValue);
  return node_params(exec, node, RT_OP_COPY, NULL, p, sizeof *p, NULL);
}

cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t exec, cudaGraphNode_t node,
                                               void *dst, const void *src, size_t count,
                                               int kind) {
  cudaMemcpy3DParms p = {0};
  p.srcPtr = (cudaPitchedPtr){(void *)(uintptr_t)src, count, count, 1};
  p.dstPtr = (cudaPitchedPtr){dst, count, count, 1};
  p.extent = (cudaExtent){count, 1, 1};
  p.kind = kind;
  return cudaGraphExecMemcpyNodeSetParams(exec, node, &p);
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaMemsetParams *p) {
  if (!exec) return rt_error(cudaErrorInvalidValue);
  return node_params(exec, node, RT_OP_SET, NULL, p, sizeof *p, check_memset);
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                           const cudaHostNodeParams *p) {
  if (!exec) return rt_error(cudaErrorInvalidValue);
  return node_params(exec, node, RT_OP_HOST, NULL, p, sizeof *p, check_host);
}

/* Update exec from graph when both have the same nodes (same count, the
 * same kind in the same creation order, kernel nodes the same kernel): the
 * nodes' parameters are copied; else cudaErrorGraphExecUpdateFailure, as
 * CUDA refuses a topology change. */
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                cudaGraphExecUpdateResultInfo *info) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_graph *x = e ? NULL : find_graph(rt, exec, 1), *g = e ? NULL : find_graph(rt, graph, 0);
  int result = cudaGraphExecUpdateSuccess;
  if (!e && (!x || !g)) e = cudaErrorInvalidValue;
  if (!e && x->n != g->n) result = cudaGraphExecUpdateErrorTopologyChanged;
  /* exec's nodes are in run order; match them to graph's by creation order */
  rt_gnode **by = !e && !result ? calloc(g->n ? g->n : 1, sizeof *by) : NULL;
  for (size_t i = 0; by && i < x->n; i++) {
    size_t k = x->nodes[i]->orig ? x->nodes[i]->orig->order : g->n;
    if (k >= g->n || by[k]) result = cudaGraphExecUpdateErrorTopologyChanged;
    else by[k] = x->nodes[i];
  }
  for (size_t i = 0; by && !result && i < g->n; i++) {
    rt_op *a = &by[i]->op, *b = &g->nodes[i]->op;
    if (a->kind != b->kind || g->nodes[i]->ndeps != by[i]->ndeps)
      result = cudaGraphExecUpdateErrorNodeTypeChanged;
    else if (a->kind == RT_OP_KERNEL && a->u.k.func != b->u.k.func)
      result = cudaGraphExecUpdateErrorFunctionChanged;
    else if (a->kind == RT_OP_GRAPH || a->kind == RT_OP_EVENT_RECORD || a->kind == RT_OP_EVENT_WAIT)
      result = a->kind == RT_OP_GRAPH ? cudaGraphExecUpdateErrorTopologyChanged : result;
  }
  for (size_t i = 0; by && !result && i < g->n; i++) {
    rt_op fresh;
    if (rt_op_copy(&fresh, &g->nodes[i]->op)) {
      e = cudaErrorMemoryAllocation;
      break;
    }
    rt_op_free(&by[i]->op);
    by[i]->op = fresh;
    by[i]->orig = g->nodes[i];
  }
  free(by);
  if (!e && result) e = cudaErrorGraphExecUpdateFailure;
  if (info) *info = (cudaGraphExecUpdateResultInfo){result, NULL, NULL};
  return rt_done(e);
}

/* A Graphviz description of the graph: one box per node, named by its
 * kind (and a kernel node by its kernel), and its edges. */
cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags) {
  static const char *kinds[] = {
      [RT_OP_KERNEL] = "kernel",     [RT_OP_COPY] = "memcpy",   [RT_OP_SET] = "memset",
      [RT_OP_HOST] = "host",         [RT_OP_EMPTY] = "empty",   [RT_OP_GRAPH] = "graph",
      [RT_OP_EVENT_RECORD] = "event record", [RT_OP_EVENT_WAIT] = "event wait",
      [RT_OP_MEM_ALLOC] = "mem alloc", [RT_OP_MEM_FREE] = "mem free"};
  _Static_assert(sizeof kinds / sizeof *kinds == RT_OP_MEM_FREE + 1, "a name for every node kind");
  (void)flags;
  if (!path) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_graph *g = e ? NULL : find_graph(rt, graph, 0);
  if (!e && !g) e = cudaErrorInvalidValue;
  if (!e) {
    /* written as every output is (util/outfile.c): whole or not at all */
    ws_strbuf b = WS_STRBUF_INIT;
    ws_sb_puts(&b, "digraph cudaGraph {\n");
    for (size_t i = 0; i < g->n; i++) {
      const rt_op *op = &g->nodes[i]->op;
      ws_sb_printf(&b, "  n%zu [shape=box label=\"%s%s%s\"];\n", i, kinds[op->kind],
                   op->kind == RT_OP_KERNEL ? " " : "",
                   op->kind == RT_OP_KERNEL ? rt->funcs[op->u.k.func].name : "");
      for (size_t d = 0; d < g->nodes[i]->ndeps; d++)
        ws_sb_printf(&b, "  n%zu -> n%zu;\n", g->nodes[i]->deps[d]->order, i);
    }
    ws_sb_puts(&b, "}\n");
    char *text = ws_sb_take(&b); /* NULL when out of memory */
    ws_diag dg = WS_DIAG_INIT;
    if (!text) e = cudaErrorMemoryAllocation;
    else if (ws_write_file(path, text, strlen(text), &dg)) {
      rt_print_diag(&dg);
      e = cudaErrorOperatingSystem;
    }
    ws_diag_free(&dg);
    free(text);
  }
  return rt_done(e);
}

/* --- the rest of the node API ------------------------------------------------------ */

/* A copy between a symbol and memory, as a memcpy node (the symbol's
 * device address resolved now; its kind checked as cudaMemcpyToSymbol's
 * and cudaMemcpyFromSymbol's are, rt_symbol_kind). */
static cudaError_t symbol_node(cudaGraphNode_t *out, cudaGraph_t graph, const cudaGraphNode_t *deps,
                               size_t ndeps, void *dst, const void *src, const void *symbol,
                               size_t count, size_t offset, int kind, int to_symbol) {
  void *addr = NULL;
  size_t size = 0;
  cudaError_t e = rt_symbol_kind(kind, to_symbol);
  if (e) return rt_error(e);
  e = cudaGetSymbolAddress(&addr, symbol);
  if (!e) e = cudaGetSymbolSize(&size, symbol);
  if (e) return e;
  if (offset > size || count > size - offset) return rt_error(cudaErrorInvalidValue);
  char *sym = (char *)addr + offset;
  return to_symbol ? cudaGraphAddMemcpyNode1D(out, graph, deps, ndeps, sym, src, count, kind)
                   : cudaGraphAddMemcpyNode1D(out, graph, deps, ndeps, dst, sym, count, kind);
}

cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *out, cudaGraph_t graph,
                                           const cudaGraphNode_t *deps, size_t ndeps,
                                           const void *symbol, const void *src, size_t count,
                                           size_t offset, int kind) {
  return symbol_node(out, graph, deps, ndeps, NULL, src, symbol, count, offset, kind, 1);
}

cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *out, cudaGraph_t graph,
                                             const cudaGraphNode_t *deps, size_t ndeps, void *dst,
                                             const void *symbol, size_t count, size_t offset,
                                             int kind) {
  return symbol_node(out, graph, deps, ndeps, dst, NULL, symbol, count, offset, kind, 0);
}

cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src,
                                           size_t count, int kind) {
  cudaMemcpy3DParms p = {0};
  p.srcPtr = (cudaPitchedPtr){(void *)(uintptr_t)src, count, count, 1};
  p.dstPtr = (cudaPitchedPtr){dst, count, count, 1};
  p.extent = (cudaExtent){count, 1, 1};
  p.kind = kind;
  return cudaGraphMemcpyNodeSetParams(node, &p);
}

/* An event node's event: get (out) or set (in), of a graph's node or, with
 * exec, of its instantiated copy. */
static cudaError_t node_event(cudaGraphExec_t exec, cudaGraphNode_t node, rt_op_kind kind,
                              cudaEvent_t *out, cudaEvent_t in) {
  rt_gnode *n;
  cudaError_t e = exec ? exec_node(exec, node, kind, out ? (void *)out : (void *)1, &n)
                       : node_of(node, kind, out ? (void *)out : (void *)1, &n);
  if (!e && out) *out = (cudaEvent_t)n->op.u.event;
  if (!e && !out) {
    rt_event *ev = rt_find_event(&ws_rt_state, in);
    if (!ev) e = cudaErrorInvalidResourceHandle;
    else n->op.u.event = ev;
  }
  return rt_done(e);
}

cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out) {
  if (!event_out) return rt_error(cudaErrorInvalidValue);
  return node_event(NULL, node, RT_OP_EVENT_RECORD, event_out, NULL);
}
cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  return node_event(NULL, node, RT_OP_EVENT_RECORD, NULL, event);
}
cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out) {
  if (!event_out) return rt_error(cudaErrorInvalidValue);
  return node_event(NULL, node, RT_OP_EVENT_WAIT, event_out, NULL);
}
cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  return node_event(NULL, node, RT_OP_EVENT_WAIT, NULL, event);
}
cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                 cudaEvent_t event) {
  if (!exec) return rt_error(cudaErrorInvalidValue);
  return node_event(exec, node, RT_OP_EVENT_RECORD, NULL, event);
}
cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t exec, cudaGraphNode_t node,
                                               cudaEvent_t event) {
  if (!exec) return rt_error(cudaErrorInvalidValue);
  return node_event(exec, node, RT_OP_EVENT_WAIT, NULL, event);
}

/* Kernel node attributes (access policy, priority...) change nothing the
 * emulator or the models see: they are accepted and read back as unset. */
cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t node, int attr,
                                            const cudaLaunchAttributeValue *value) {
  rt_gnode *n;
  (void)attr;
  cudaError_t e = node_of(node, RT_OP_KERNEL, value, &n);
  return rt_done(e);
}
cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t node, int attr,
                                            cudaLaunchAttributeValue *value) {
  rt_gnode *n;
  (void)attr;
  cudaError_t e = node_of(node, RT_OP_KERNEL, value, &n);
  if (!e) memset(value, 0, sizeof *value);
  return rt_done(e);
}
cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t dst, cudaGraphNode_t src) {
  rt_gnode *n;
  cudaError_t e = node_of(src, RT_OP_KERNEL, src, &n);
  if (!e && (!find_node(&ws_rt_state, NULL, dst) || ((rt_gnode *)dst)->op.kind != RT_OP_KERNEL))
    e = cudaErrorInvalidValue;
  return rt_done(e);
}

/* Kernel, memcpy and memset nodes of an instantiated graph can be turned
 * off and on (CUDA allows no other kind). */
static cudaError_t enabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned *get, unsigned set) {
  rt_gnode *n = NULL;
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_graph *x = e ? NULL : find_graph(rt, exec, 1);
  for (size_t i = 0; x && i < x->n && !n; i++)
    if (x->nodes[i]->orig == (rt_gnode *)node) n = x->nodes[i];
  if (!e && !n) e = cudaErrorInvalidValue;
  if (!e && n->op.kind != RT_OP_KERNEL && n->op.kind != RT_OP_COPY && n->op.kind != RT_OP_SET)
    e = cudaErrorInvalidValue;
  if (!e && get) *get = !n->disabled;
  if (!e && !get) n->disabled = !set;
  return rt_done(e);
}
cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned *isEnabled) {
  if (!isEnabled) return rt_error(cudaErrorInvalidValue);
  return enabled(exec, node, isEnabled, 0);
}
cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned isEnabled) {
  return enabled(exec, node, NULL, isEnabled);
}
