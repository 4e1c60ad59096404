/*
 * stream.c — streams, events, host callbacks and stream capture.
 *
 * Every operation has finished when its call returns (rt.h), so a stream
 * needs no queue: an operation submitted to a stream runs at once, in the
 * calling thread, after everything submitted before it — stream order
 * holds trivially, host functions and callbacks included.  An event records
 * the predicted clock.
 *
 * Stream capture (docs/exec.md, "Graphs"): while a stream captures, what is
 * submitted to it is recorded as a node of the capture's graph instead,
 * depending on the stream's current nodes (rt_stream.deps); recording an
 * event in a capturing stream keeps those nodes in the event, and a stream
 * that waits on it joins the capture after them (fork and join across
 * streams, as CUDA allows).  EndCapture on the origin stream returns the
 * graph, once every joined stream's work has been joined back.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/exports.h"
#include "cudart/rt.h"
#include "util/vec.h"

/* The default streams: 0, cudaStreamLegacy and cudaStreamPerThread. */
#define STREAM_LEGACY ((cudaStream_t)(uintptr_t)1)
#define STREAM_PER_THREAD ((cudaStream_t)(uintptr_t)2)

cudaError_t rt_find_stream(ws_rt *rt, cudaStream_t s, rt_stream **out) {
  *out = NULL;
  if (!s || s == STREAM_LEGACY || s == STREAM_PER_THREAD) return cudaSuccess;
  for (rt_stream *p = rt->streams; p; p = p->next)
    if (p == (rt_stream *)s) {
      *out = p;
      return cudaSuccess;
    }
  return cudaErrorInvalidResourceHandle;
}

rt_event *rt_find_event(ws_rt *rt, cudaEvent_t e) {
  for (rt_event *p = rt->events; p; p = p->next)
    if (p == (rt_event *)e) return p;
  return NULL;
}

static int set_copy(rt_nodeset *dst, const rt_nodeset *src) {
  dst->n = 0;
  if (WS_VEC_RESERVE(dst->v, dst->cap, src->n)) return -1;
  if (src->n) memcpy(dst->v, src->v, src->n * sizeof *src->v);
  dst->n = src->n;
  return 0;
}

/* dst ∪= src */
static int set_union(rt_nodeset *dst, const rt_nodeset *src) {
  for (size_t i = 0; i < src->n; i++) {
    size_t j = 0;
    while (j < dst->n && dst->v[j] != src->v[i]) j++;
    if (j == dst->n && WS_VEC_PUSH(dst->v, dst->n, dst->cap, src->v[i])) return -1;
  }
  return 0;
}

/* --- operations -------------------------------------------------------------- */

cudaError_t rt_op_run(ws_rt *rt, const rt_op *op) {
  cudaError_t e = rt_sticky(rt);
  if (e) return e;
  switch (op->kind) {
  case RT_OP_KERNEL:
    return rt_launch(rt, &rt->funcs[op->u.k.func], op->u.k.grid, op->u.k.block, op->u.k.params,
                     op->u.k.params_bytes, op->u.k.shared, op->u.k.coop);
  case RT_OP_COPY: return rt_copy3d(rt, &op->u.copy);
  case RT_OP_SET: return rt_set2d(rt, &op->u.set);
  case RT_OP_HOST:
    /* in stream order: everything before it has finished */
    op->u.host.fn(op->u.host.userData);
    return cudaSuccess;
  case RT_OP_GRAPH: return rt_graph_run(rt, op->u.child);
  case RT_OP_EVENT_RECORD:
    if (rt_find_event(rt, (cudaEvent_t)op->u.event)) op->u.event->t_ms = rt->clock_ms;
    return cudaSuccess;
  case RT_OP_EMPTY:
  case RT_OP_EVENT_WAIT:
  /* a graph's allocation keeps its address for good (rt_alloc.graph): its
   * allocation and free nodes have nothing left to do when they run */
  case RT_OP_MEM_ALLOC:
  case RT_OP_MEM_FREE: return cudaSuccess;
  }
  return cudaErrorInvalidValue;
}

int rt_op_copy(rt_op *out, const rt_op *op) {
  *out = *op;
  if (op->kind == RT_OP_KERNEL) {
    out->u.k.params = malloc(op->u.k.params_bytes ? op->u.k.params_bytes : 1);
    if (!out->u.k.params) return -1;
    if (op->u.k.params_bytes) memcpy(out->u.k.params, op->u.k.params, op->u.k.params_bytes);
  }
  return 0;
}

void rt_op_free(rt_op *op) {
  if (op->kind == RT_OP_KERNEL) free(op->u.k.params);
  op->kind = RT_OP_EMPTY;
}

cudaError_t rt_submit(ws_rt *rt, cudaStream_t s, const rt_op *op) {
  rt_stream *st;
  cudaError_t e = rt_find_stream(rt, s, &st);
  if (e) return e;
  if (!st || !st->cap) return rt_op_run(rt, op);
  struct rt_gnode *n = NULL;
  e = rt_graph_add(rt, st->cap->graph, op, st->deps.v, st->deps.n, &n);
  if (e) return e;
  st->deps.n = 0;
  return WS_VEC_PUSH(st->deps.v, st->deps.n, st->deps.cap, n) ? cudaErrorMemoryAllocation
                                                               : cudaSuccess;
}

/* --- streams --------------------------------------------------------------------
 * Priorities: 0 (least) to -5 (greatest) where the compute capability has
 * them (3.5 and later), as CUDA 12 and 13 report them for those GPUs; a
 * stream's priority is clamped into the range, as CUDA does. */

static void priority_range(const ws_rt *rt, int *least, int *greatest) {
  int cc = rt->gpu ? rt->gpu->cc_major * 10 + rt->gpu->cc_minor : 0;
  *least = 0;
  *greatest = cc >= 35 ? -5 : 0;
}

static int clamp_priority(const ws_rt *rt, int p) {
  int lo, hi;
  priority_range(rt, &lo, &hi);
  return p > lo ? lo : p < hi ? hi : p;
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  int lo = 0, hi = 0;
  if (!e) priority_range(rt, &lo, &hi);
  if (!e && leastPriority) *leastPriority = lo;
  if (!e && greatestPriority) *greatestPriority = hi;
  return rt_done(e);
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int priority) {
  if (!s || flags > cudaStreamNonBlocking) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_stream *st = e ? NULL : calloc(1, sizeof *st);
  if (!e && !st) e = cudaErrorMemoryAllocation;
  if (!e) {
    st->flags = flags;
    st->priority = clamp_priority(rt, priority);
    st->id = rt->next_id++;
    st->next = rt->streams;
    rt->streams = st;
    *s = (cudaStream_t)st;
  }
  return rt_done(e);
}

cudaError_t cudaStreamCreate(cudaStream_t *s) { return cudaStreamCreateWithPriority(s, 0, 0); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags) {
  return cudaStreamCreateWithPriority(s, flags, 0);
}

static int reaches(struct rt_gnode *n, const rt_nodeset *set);

/* A stream that joined another's capture may be destroyed once its last
 * work is joined back into the origin (as NVIDIA's graphMemoryNodes sample
 * does with its second stream): the capture keeps its nodes.  Its unjoined
 * work would be lost: cudaErrorStreamCaptureUnjoined.  The origin itself
 * ends its capture first (cudaErrorStreamCaptureUnsupported). */
static cudaError_t destroy_capturing(const rt_stream *st) {
  if (st->cap->origin == st) return cudaErrorStreamCaptureUnsupported;
  for (size_t i = 0; i < st->deps.n; i++)
    if (!reaches(st->deps.v[i], &st->cap->origin->deps)) return cudaErrorStreamCaptureUnjoined;
  return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t s) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_stream **p = &rt->streams;
  while (!e && *p && *p != (rt_stream *)s) p = &(*p)->next;
  if (!e && !*p) e = cudaErrorInvalidResourceHandle;
  if (!e && (*p)->cap) e = destroy_capturing(*p);
  if (!e) {
    rt_stream *dead = *p;
    *p = dead->next;
    free(dead->deps.v);
    free(dead);
  }
  return rt_done(e);
}

/* Synchronising a capturing stream is an error in CUDA (the work is not
 * there to wait for); otherwise everything has finished already. */
static cudaError_t stream_sync(cudaStream_t s) {
  ws_rt *rt = rt_enter();
  rt_stream *st;
  cudaError_t e = rt_sticky(rt);
  if (!e) e = rt_find_stream(rt, s, &st);
  if (!e && st && st->cap) e = cudaErrorStreamCaptureUnsupported;
  return rt_done(e);
}

cudaError_t cudaStreamSynchronize(cudaStream_t s) { return stream_sync(s); }
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s) { return stream_sync(s); }
cudaError_t cudaStreamQuery(cudaStream_t s) { return stream_sync(s); }
cudaError_t cudaStreamQuery_ptsz(cudaStream_t s) { return stream_sync(s); }

cudaError_t cudaDeviceSynchronize(void) {
  ws_rt *rt = rt_enter();
  return rt_done(rt_sticky(rt)); /* every operation has already finished */
}

/* A stream's property: its priority, flags, id or device. */
enum { PROP_PRIORITY, PROP_FLAGS, PROP_ID, PROP_DEVICE };
static cudaError_t stream_prop(cudaStream_t s, int what, void *out) {
  ws_rt *rt = rt_enter();
  rt_stream *st = NULL;
  cudaError_t e = out ? rt_sticky(rt) : cudaErrorInvalidValue;
  if (!e) e = rt_find_stream(rt, s, &st);
  if (!e && what == PROP_PRIORITY) *(int *)out = st ? st->priority : 0;
  if (!e && what == PROP_FLAGS) *(unsigned *)out = st ? st->flags : 0;
  /* ids: the legacy stream 0, the per-thread one 1, created streams 2, 3, ... */
  if (!e && what == PROP_ID)
    *(unsigned long long *)out = st ? st->id + 1 : s == STREAM_PER_THREAD ? 1 : 0;
  if (!e && what == PROP_DEVICE) *(int *)out = 0;
  return rt_done(e);
}

cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority) {
  return stream_prop(s, PROP_PRIORITY, priority);
}
cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t s, int *priority) {
  return stream_prop(s, PROP_PRIORITY, priority);
}
cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags) {
  return stream_prop(s, PROP_FLAGS, flags);
}
cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t s, unsigned *flags) {
  return stream_prop(s, PROP_FLAGS, flags);
}
cudaError_t cudaStreamGetId(cudaStream_t s, unsigned long long *id) {
  return stream_prop(s, PROP_ID, id);
}
cudaError_t cudaStreamGetId_ptsz(cudaStream_t s, unsigned long long *id) {
  return stream_prop(s, PROP_ID, id);
}
cudaError_t cudaStreamGetDevice(cudaStream_t s, int *device) {
  return stream_prop(s, PROP_DEVICE, device);
}
cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t s, int *device) {
  return stream_prop(s, PROP_DEVICE, device);
}

/* Stream attributes: the access-policy window is kept (an L2 hint the
 * models do not use), the priority sets the stream's, the synchronisation
 * policy and memory-sync domains are accepted. */
cudaError_t cudaStreamSetAttribute(cudaStream_t s, int attr, const cudaLaunchAttributeValue *value) {
  if (!value) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  rt_stream *st;
  cudaError_t e = rt_sticky(rt);
  if (!e) e = rt_find_stream(rt, s, &st);
  if (!e && attr == cudaLaunchAttributeAccessPolicyWindow && st) {
    st->policy = *value;
    st->has_policy = 1;
  } else if (!e && attr == cudaLaunchAttributePriority && st) {
    st->priority = clamp_priority(rt, value->priority);
  } else if (!e && attr != cudaLaunchAttributeAccessPolicyWindow &&
             attr != cudaLaunchAttributePriority && attr != cudaLaunchAttributeSynchronizationPolicy &&
             attr != 9 && attr != 10) { /* MemSyncDomainMap, MemSyncDomain */
    e = cudaErrorInvalidValue;
  }
  return rt_done(e);
}
cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t s, int attr,
                                        const cudaLaunchAttributeValue *value) {
  return cudaStreamSetAttribute(s, attr, value);
}

cudaError_t cudaStreamGetAttribute(cudaStream_t s, int attr, cudaLaunchAttributeValue *out) {
  ws_rt *rt = rt_enter();
  rt_stream *st = NULL;
  cudaError_t e = out ? rt_sticky(rt) : cudaErrorInvalidValue;
  if (!e) e = rt_find_stream(rt, s, &st);
  if (!e) {
    memset(out, 0, sizeof *out);
    if (attr == cudaLaunchAttributeAccessPolicyWindow) {
      if (st && st->has_policy) *out = st->policy;
    } else if (attr == cudaLaunchAttributePriority) {
      out->priority = st ? st->priority : 0;
    } else if (attr == cudaLaunchAttributeSynchronizationPolicy) {
      out->syncPolicy = 1; /* cudaSyncPolicyAuto */
    } else if (attr != 9 && attr != 10) {
      e = cudaErrorInvalidValue;
    }
  }
  return rt_done(e);
}
cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t s, int attr, cudaLaunchAttributeValue *out) {
  return cudaStreamGetAttribute(s, attr, out);
}

cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src) {
  ws_rt *rt = rt_enter();
  rt_stream *d, *s;
  cudaError_t e = rt_sticky(rt);
  if (!e) e = rt_find_stream(rt, dst, &d);
  if (!e) e = rt_find_stream(rt, src, &s);
  if (!e && d && s) {
    d->policy = s->policy;
    d->has_policy = s->has_policy;
    d->priority = s->priority;
  }
  return rt_done(e);
}
cudaError_t cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src) {
  return cudaStreamCopyAttributes(dst, src);
}

/* --- host functions and callbacks ------------------------------------------------ */

cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *userData) {
  if (!fn) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  rt_op op = {.kind = RT_OP_HOST, .u.host = {fn, userData}};
  cudaError_t e = rt_sticky(rt);
  if (!e) e = rt_submit(rt, s, &op);
  return rt_done(e);
}
cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t s, cudaHostFn_t fn, void *userData) {
  return cudaLaunchHostFunc(s, fn, userData);
}

/* The callback gets the stream's status: cudaSuccess, or the error of a
 * kernel that faulted before it (CUDA still calls it then).  It cannot be
 * captured (CUDA: use cudaLaunchHostFunc). */
cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void *userData,
                                  unsigned flags) {
  if (!cb || flags) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  rt_stream *st;
  cudaError_t e = rt->unloading ? cudaErrorCudartUnloading : rt_find_stream(rt, s, &st);
  if (!e && st && st->cap) e = cudaErrorStreamCaptureUnsupported;
  if (!e) cb(s, rt_sticky(rt), userData);
  return rt_done(e);
}
cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t s, cudaStreamCallback_t cb, void *userData,
                                       unsigned flags) {
  return cudaStreamAddCallback(s, cb, userData, flags);
}

/* --- events ----------------------------------------------------------------------- */

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags) {
  if (!e || (flags & ~7u)) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t err = rt_sticky(rt);
  rt_event *ev = err ? NULL : calloc(1, sizeof *ev);
  if (!err && !ev) err = cudaErrorMemoryAllocation;
  if (!err) {
    ev->t_ms = NAN;
    ev->flags = flags;
    ev->next = rt->events;
    rt->events = ev;
    *e = (cudaEvent_t)ev;
  }
  return rt_done(err);
}

cudaError_t cudaEventCreate(cudaEvent_t *e) { return cudaEventCreateWithFlags(e, 0); }

cudaError_t cudaEventDestroy(cudaEvent_t e) {
  ws_rt *rt = rt_enter();
  cudaError_t err = rt_sticky(rt);
  rt_event **p = &rt->events;
  while (!err && *p && *p != (rt_event *)e) p = &(*p)->next;
  if (!err && !*p) err = cudaErrorInvalidResourceHandle;
  if (!err) {
    rt_event *dead = *p;
    *p = dead->next;
    free(dead->deps.v);
    free(dead);
  }
  return rt_done(err);
}

/* In a capturing stream the event keeps the stream's current nodes (for a
 * stream that will wait on it); elsewhere it reads the predicted clock. */
cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned flags) {
  ws_rt *rt = rt_enter();
  rt_event *ev = rt_find_event(rt, e);
  rt_stream *st = NULL;
  cudaError_t err = rt_sticky(rt);
  if (!err && (!ev || flags > 1)) err = ev ? cudaErrorInvalidValue : cudaErrorInvalidResourceHandle;
  if (!err) err = rt_find_stream(rt, s, &st);
  if (!err && st && st->cap) {
    ev->cap = st->cap;
    if (set_copy(&ev->deps, &st->deps)) err = cudaErrorMemoryAllocation;
  } else if (!err) {
    ev->cap = NULL;
    ev->t_ms = rt->clock_ms;
  }
  return rt_done(err);
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  return cudaEventRecordWithFlags(e, s, 0);
}
cudaError_t cudaEventRecord_ptsz(cudaEvent_t e, cudaStream_t s) {
  return cudaEventRecordWithFlags(e, s, 0);
}
cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t e, cudaStream_t s, unsigned flags) {
  return cudaEventRecordWithFlags(e, s, flags);
}

/* A stream waiting on an event recorded during a capture joins that
 * capture after the event's nodes. */
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags) {
  ws_rt *rt = rt_enter();
  rt_event *ev = rt_find_event(rt, e);
  rt_stream *st = NULL;
  cudaError_t err = rt_sticky(rt);
  if (!err && !ev) err = cudaErrorInvalidResourceHandle;
  if (!err && flags > 1) err = cudaErrorInvalidValue;
  if (!err) err = rt_find_stream(rt, s, &st);
  if (!err && ev->cap) {
    if (!st) {
      err = cudaErrorStreamCaptureImplicit; /* the legacy stream cannot join a capture */
    } else if (!st->cap) {
      st->cap = ev->cap;
      if (set_copy(&st->deps, &ev->deps)) err = cudaErrorMemoryAllocation;
    } else if (st->cap != ev->cap) {
      err = cudaErrorStreamCaptureIsolation;
    } else if (set_union(&st->deps, &ev->deps)) {
      err = cudaErrorMemoryAllocation;
    }
  }
  return rt_done(err);
}
cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t s, cudaEvent_t e, unsigned flags) {
  return cudaStreamWaitEvent(s, e, flags);
}

cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  ws_rt *rt = rt_enter();
  cudaError_t err = rt_sticky(rt);
  rt_event *ev = rt_find_event(rt, e);
  if (!err && !ev) err = cudaErrorInvalidResourceHandle;
  if (!err && ev->cap) err = cudaErrorCapturedEvent;
  return rt_done(err);
}

cudaError_t cudaEventQuery(cudaEvent_t e) { return cudaEventSynchronize(e); }

/* The PREDICTED GPU time of the kernels launched between the two records
 * (the primary model's, docs/exec.md), not the emulator's wall time. */
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  rt_event *a = rt_find_event(rt, start), *b = rt_find_event(rt, end);
  cudaError_t err = rt_sticky(rt);
  if (!err && (!a || !b))
    err = cudaErrorInvalidResourceHandle;
  else if (!err && ((a->flags | b->flags) & 2)) /* cudaEventDisableTiming */
    err = cudaErrorInvalidResourceHandle;
  else if (!err && (isnan(a->t_ms) || isnan(b->t_ms)))
    err = cudaErrorInvalidResourceHandle; /* never recorded, as CUDA says */
  else if (!err)
    *ms = (float)(b->t_ms - a->t_ms);
  return rt_done(err);
}

/* --- stream capture ------------------------------------------------------------------ */

static _Thread_local int capture_mode; /* cudaThreadExchangeStreamCaptureMode */

cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode) {
  if (!mode || *mode < cudaStreamCaptureModeGlobal || *mode > cudaStreamCaptureModeRelaxed)
    return rt_error(cudaErrorInvalidValue);
  int old = capture_mode;
  capture_mode = *mode;
  *mode = old;
  return cudaSuccess;
}

/* Begin capturing s into g (a new graph when NULL) after deps. */
static cudaError_t begin_capture(cudaStream_t s, struct rt_graph *g, cudaGraphNode_t const *deps,
                                 size_t ndeps, int mode) {
  if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed)
    return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  rt_stream *st = NULL;
  cudaError_t e = rt_sticky(rt);
  if (!e) e = rt_find_stream(rt, s, &st);
  if (!e && !st) e = cudaErrorStreamCaptureUnsupported; /* not the default streams */
  if (!e && st->cap) e = cudaErrorIllegalState;
  rt_capture *c = e ? NULL : calloc(1, sizeof *c);
  if (!e && !c) e = cudaErrorMemoryAllocation;
  if (!e) {
    c->graph = g ? g : rt_graph_new(rt);
    c->origin = st;
    c->id = rt->next_id++;
    c->mode = mode;
    st->deps.n = 0;
    for (size_t i = 0; i < ndeps; i++)
      if (WS_VEC_PUSH(st->deps.v, st->deps.n, st->deps.cap, (struct rt_gnode *)deps[i]))
        e = cudaErrorMemoryAllocation;
    if (!c->graph) e = cudaErrorMemoryAllocation;
    if (e) {
      if (!g) rt_graph_free(rt, c->graph);
      free(c);
    } else {
      st->cap = c;
    }
  }
  return rt_done(e);
}

cudaError_t cudaStreamBeginCapture(cudaStream_t s, int mode) {
  return begin_capture(s, NULL, NULL, 0, mode);
}
cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t s, int mode) {
  return begin_capture(s, NULL, NULL, 0, mode);
}
cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t s, cudaGraph_t graph,
                                          const cudaGraphNode_t *deps,
                                          const cudaGraphEdgeData *edges, size_t ndeps, int mode) {
  (void)edges; /* default edges only */
  if (!graph || (ndeps && !deps)) return rt_error(cudaErrorInvalidValue);
  return begin_capture(s, (struct rt_graph *)graph, deps, ndeps, mode);
}
cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t s, cudaGraph_t graph,
                                               const cudaGraphNode_t *deps,
                                               const cudaGraphEdgeData *edges, size_t ndeps,
                                               int mode) {
  return cudaStreamBeginCaptureToGraph(s, graph, deps, edges, ndeps, mode);
}

/* Is node n one of `set` or an ancestor of one of them? */
int rt_graph_is_ancestor(struct rt_gnode *a, struct rt_gnode *b); /* graph.c */
static int reaches(struct rt_gnode *n, const rt_nodeset *set) {
  for (size_t i = 0; i < set->n; i++)
    if (set->v[i] == n || rt_graph_is_ancestor(n, set->v[i])) return 1;
  return 0;
}

cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *pGraph) {
  if (!pGraph) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  rt_stream *st = NULL;
  cudaError_t e = rt_sticky(rt);
  if (!e) e = rt_find_stream(rt, s, &st);
  if (!e && (!st || !st->cap)) e = cudaErrorIllegalState;
  if (!e && st->cap->origin != st) e = cudaErrorStreamCaptureUnmatched;
  if (e) return rt_done(e);
  rt_capture *c = st->cap;
  /* every other stream's last work must be joined back into the origin */
  for (rt_stream *t = rt->streams; t && !e; t = t->next)
    for (size_t i = 0; t != st && t->cap == c && i < t->deps.n && !e; i++)
      if (!reaches(t->deps.v[i], &st->deps)) e = cudaErrorStreamCaptureUnjoined;
  for (rt_stream *t = rt->streams; t; t = t->next)
    if (t->cap == c) {
      t->cap = NULL;
      t->deps.n = 0;
    }
  for (rt_event *ev = rt->events; ev; ev = ev->next)
    if (ev->cap == c) ev->cap = NULL;
  *pGraph = e ? NULL : (cudaGraph_t)c->graph;
  if (e) rt_graph_free(rt, c->graph); /* the capture is invalidated */
  free(c);
  return rt_done(e);
}
cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t s, cudaGraph_t *pGraph) {
  return cudaStreamEndCapture(s, pGraph);
}

cudaError_t cudaStreamIsCapturing(cudaStream_t s, int *status) {
  if (!status) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  rt_stream *st = NULL;
  cudaError_t e = rt_sticky(rt);
  if (!e) e = rt_find_stream(rt, s, &st);
  if (!e) *status = st && st->cap ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return rt_done(e);
}
cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t s, int *status) {
  return cudaStreamIsCapturing(s, status);
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, int *status, unsigned long long *id,
                                     cudaGraph_t *graph, const cudaGraphNode_t **deps,
                                     const cudaGraphEdgeData **edges, size_t *ndeps) {
  if (!status) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  rt_stream *st = NULL;
  cudaError_t e = rt_sticky(rt);
  if (!e) e = rt_find_stream(rt, s, &st);
  if (!e) {
    rt_capture *c = st ? st->cap : NULL;
    *status = c ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
    if (c && id) *id = c->id;
    if (c && graph) *graph = (cudaGraph_t)c->graph;
    if (c && deps) *deps = (const cudaGraphNode_t *)st->deps.v;
    if (c && edges) *edges = NULL; /* default edges */
    if (c && ndeps) *ndeps = st->deps.n;
  }
  return rt_done(e);
}
cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t s, int *status, unsigned long long *id,
                                          cudaGraph_t *graph, const cudaGraphNode_t **deps,
                                          const cudaGraphEdgeData **edges, size_t *ndeps) {
  return cudaStreamGetCaptureInfo(s, status, id, graph, deps, edges, ndeps);
}

/* flags 0 adds the nodes to the stream's dependencies, 1 replaces them. */
cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t s, cudaGraphNode_t *deps,
                                                const cudaGraphEdgeData *edges, size_t n,
                                                unsigned flags) {
  (void)edges;
  if (flags > 1 || (n && !deps)) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  rt_stream *st = NULL;
  cudaError_t e = rt_sticky(rt);
  if (!e) e = rt_find_stream(rt, s, &st);
  if (!e && (!st || !st->cap)) e = cudaErrorIllegalState;
  if (!e) {
    rt_nodeset add = {(struct rt_gnode **)deps, n, n};
    if (flags == 1) st->deps.n = 0;
    if (set_union(&st->deps, &add)) e = cudaErrorMemoryAllocation;
  }
  return rt_done(e);
}
cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t s, cudaGraphNode_t *deps,
                                                     const cudaGraphEdgeData *edges, size_t n,
                                                     unsigned flags) {
  return cudaStreamUpdateCaptureDependencies(s, deps, edges, n, flags);
}
