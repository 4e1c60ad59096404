/*
 * pool.c — the worker threads that run a launch's blocks, kept from launch
 * to launch (a CUDA program makes thousands of launches; creating and
 * joining threads for each cost more than a small launch's work), and the
 * machine's core count, read once per process.
 *
 * A device owns its pool (ws_emu_device.pool: made with the device, with
 * no thread yet; ended by ws_emu_device_free).  A run
 * takes the idle threads it needs, starting new ones when too few are
 * idle, so launches on one device from several host threads each get
 * their own workers; a thread goes back to idle when its part of the run
 * is done.  Worker 0 of a run is the calling thread.
 *
 * Invariant: a thread is idle (job NULL) or runs exactly one job; the pool
 * mutex guards every thread's job and the pool's list.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "emu/emu_int.h"
#include "util/vec.h"

/* One run: fn(arg, i) for i = 1 .. n-1 on pool threads; `left` counts the
 * parts not finished yet. */
typedef struct pjob {
  void (*fn)(void *arg, int index);
  void *arg;
  int left;            /* parts still running (guarded by the pool mutex) */
  pthread_cond_t done; /* signalled when left reaches 0 */
} pjob;

typedef struct pthread_slot {
  pthread_t th;        /* the thread */
  pthread_cond_t wake; /* signalled when it gets a job or must end */
  pjob *job;           /* its job, or NULL when idle */
  int index;           /* its worker index in that job */
  struct wpool *pool;  /* back pointer */
} pthread_slot;

struct wpool {
  pthread_mutex_t mu;   /* guards everything below and every slot's job */
  pthread_slot **slots; /* started threads (each allocated once: their address is stable) */
  int nslots;           /* entries used */
  size_t cap;           /* entries allocated (WS_VEC_RESERVE) */
  int quit;             /* set by ws_emu_pool_free: threads end */
};

static void *thread_main(void *arg) {
  pthread_slot *s = arg;
  struct wpool *p = s->pool;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (!s->job && !p->quit) pthread_cond_wait(&s->wake, &p->mu);
    if (!s->job) break; /* quit, and idle */
    pjob *j = s->job;
    int i = s->index;
    pthread_mutex_unlock(&p->mu);
    j->fn(j->arg, i);
    pthread_mutex_lock(&p->mu);
    s->job = NULL;
    if (--j->left == 0) pthread_cond_signal(&j->done);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

/* A new thread in p's list (with p->mu held); NULL when it cannot start. */
static pthread_slot *start_thread(struct wpool *p) {
  if (p->nslots >= WS_EMU_MAX_THREADS) return NULL;
  pthread_slot *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->pool = p;
  if (pthread_cond_init(&s->wake, NULL)) {
    free(s);
    return NULL;
  }
  if (WS_VEC_RESERVE(p->slots, p->cap, (size_t)p->nslots + 1)) {
    pthread_cond_destroy(&s->wake);
    free(s);
    return NULL;
  }
  if (pthread_create(&s->th, NULL, thread_main, s)) {
    pthread_cond_destroy(&s->wake);
    free(s);
    return NULL;
  }
  p->slots[p->nslots++] = s;
  return s;
}

struct wpool *ws_emu_pool_new(void) {
  struct wpool *p = calloc(1, sizeof *p);
  if (p && pthread_mutex_init(&p->mu, NULL)) {
    free(p);
    return NULL;
  }
  return p;
}

int ws_emu_pool_run(struct wpool *p, int n, void (*fn)(void *arg, int index), void *arg) {
  if (n <= 1 || !p) {
    fn(arg, 0);
    return 1;
  }
  pjob j = {fn, arg, 0, PTHREAD_COND_INITIALIZER};
  pthread_mutex_lock(&p->mu);
  int got = 1; /* the caller is worker 0 */
  for (int i = 0; i < p->nslots && got < n; i++)
    if (!p->slots[i]->job) {
      p->slots[i]->job = &j;
      p->slots[i]->index = got++;
      j.left++;
      pthread_cond_signal(&p->slots[i]->wake);
    }
  while (got < n) {
    pthread_slot *s = start_thread(p);
    if (!s) break; /* fewer workers: the blocks are shared out all the same */
    s->job = &j;
    s->index = got++;
    j.left++;
  }
  pthread_mutex_unlock(&p->mu);
  fn(arg, 0);
  pthread_mutex_lock(&p->mu);
  while (j.left) pthread_cond_wait(&j.done, &p->mu);
  pthread_mutex_unlock(&p->mu);
  pthread_cond_destroy(&j.done);
  return got;
}

void ws_emu_pool_free(struct wpool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->quit = 1;
  for (int i = 0; i < p->nslots; i++) pthread_cond_signal(&p->slots[i]->wake);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->nslots; i++) {
    pthread_join(p->slots[i]->th, NULL);
    pthread_cond_destroy(&p->slots[i]->wake);
    free(p->slots[i]);
  }
  free(p->slots);
  pthread_mutex_destroy(&p->mu);
  free(p);
}

/* The core count, read once: sysconf(_SC_NPROCESSORS_ONLN) opens a file
 * under /sys on every call (about 3 us, most of a small launch's set-up). */
static long g_cores;
static pthread_once_t g_cores_once = PTHREAD_ONCE_INIT;
static void read_cores(void) { g_cores = sysconf(_SC_NPROCESSORS_ONLN); }

int ws_emu_cores(void) {
  pthread_once(&g_cores_once, read_cores);
  return g_cores > 0 ? (g_cores > WS_EMU_MAX_THREADS ? WS_EMU_MAX_THREADS : (int)g_cores) : 1;
}
