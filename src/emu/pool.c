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
 * Steering (Linux): a thread woken for a run is put, for that wake-up
 * only, on the caller's CPUs less the one the caller is running on, and
 * takes back the caller's CPUs as its first act.  Left to itself, the
 * kernel placed a woken idle thread on the caller's own CPU (299 times
 * out of 300 on the idle 2-core development machine, a KVM guest), where
 * it waited until the caller finished its part or the load balancer's
 * next tick (up to 4 ms) moved one of them: a launch of 1 ms took 2 ms at
 * -j 2 (docs/emulator.md, "Threads and determinism").  Which CPU a worker
 * runs on never changes a result.
 *
 * Invariant: a thread is idle (job NULL) or runs exactly one job; the pool
 * mutex guards every thread's job and the pool's list.
 */
#define _GNU_SOURCE /* sched_getcpu, sched_getaffinity, pthread_setaffinity_np, CPU_* */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "emu/emu_int.h"
#include "util/vec.h"

/* Where a run's threads go (steering, above). */
typedef struct steer {
#ifdef __linux__
  cpu_set_t home; /* the caller's CPUs: a steered thread's own once it runs */
  cpu_set_t away; /* those less the caller's current CPU: where it is woken */
#endif
  int on;         /* steering applies (the caller may run on two CPUs or more) */
} steer;

/* One run: fn(arg, i) for i = 1 .. n-1 on pool threads; `left` counts the
 * parts not finished yet. */
typedef struct pjob {
  void (*fn)(void *arg, int index);
  void *arg;
  int left;            /* parts still running (guarded by the pool mutex) */
  pthread_cond_t done; /* signalled when left reaches 0 */
  const steer *st;     /* the run's steering */
} pjob;

typedef struct pthread_slot {
  pthread_t th;        /* the thread */
  pthread_cond_t wake; /* signalled when it gets a job or must end */
  pjob *job;           /* its job, or NULL when idle */
  int index;           /* its worker index in that job */
  int steered;         /* woken on the job's `away` CPUs: takes back `home` */
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
    int i = s->index, steered = s->steered;
    s->steered = 0;
    pthread_mutex_unlock(&p->mu);
#ifdef __linux__
    if (steered) pthread_setaffinity_np(pthread_self(), sizeof j->st->home, &j->st->home);
#else
    (void)steered;
#endif
    j->fn(j->arg, i);
    pthread_mutex_lock(&p->mu);
    s->job = NULL;
    if (--j->left == 0) pthread_cond_signal(&j->done);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

/* The steering of a run from the calling thread (steer.on 0: none). */
static void steer_init(steer *st) {
  st->on = 0;
#ifdef __linux__
  int cpu = sched_getcpu();
  if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof st->home, &st->home)) return;
  st->away = st->home;
  CPU_CLR(cpu, &st->away);
  st->on = CPU_COUNT(&st->away) > 0;
#endif
}

/* Thread s, about to be woken for a job, on the run's `away` CPUs (with
 * p->mu held); a failure leaves it where it was. */
static void steer_thread(pthread_slot *s, const steer *st) {
#ifdef __linux__
  if (st->on && !s->steered) s->steered = pthread_setaffinity_np(s->th, sizeof st->away, &st->away) == 0;
#else
  (void)s;
  (void)st;
#endif
}

/* A new thread in p's list (with p->mu held), started on the run's `away`
 * CPUs; NULL when it cannot start. */
static pthread_slot *start_thread(struct wpool *p, const steer *st) {
  if (p->nslots >= WS_EMU_MAX_THREADS) return NULL;
  pthread_slot *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->pool = p;
  if (pthread_cond_init(&s->wake, NULL)) {
    free(s);
    return NULL;
  }
  pthread_attr_t at;
  int attr = pthread_attr_init(&at) == 0;
#ifdef __linux__
  if (attr && st->on) s->steered = pthread_attr_setaffinity_np(&at, sizeof st->away, &st->away) == 0;
#else
  (void)st;
#endif
  if (WS_VEC_RESERVE(p->slots, p->cap, (size_t)p->nslots + 1) ||
      pthread_create(&s->th, attr ? &at : NULL, thread_main, s)) {
    if (attr) pthread_attr_destroy(&at);
    pthread_cond_destroy(&s->wake);
    free(s);
    return NULL;
  }
  if (attr) pthread_attr_destroy(&at);
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
  steer st;
  steer_init(&st);
  pjob j = {fn, arg, 0, PTHREAD_COND_INITIALIZER, &st};
  pthread_mutex_lock(&p->mu);
  int got = 1; /* the caller is worker 0 */
  for (int i = 0; i < p->nslots && got < n; i++)
    if (!p->slots[i]->job) {
      steer_thread(p->slots[i], &st);
      p->slots[i]->job = &j;
      p->slots[i]->index = got++;
      j.left++;
      pthread_cond_signal(&p->slots[i]->wake);
    }
  while (got < n) {
    pthread_slot *s = start_thread(p, &st);
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
 * under /sys on every call (about 3 us, most of a small launch's set-up).
 * On Linux, the CPUs the process may run on when they are fewer (taskset,
 * a container's cpuset): more workers than those only take turns. */
static long g_cores;
static pthread_once_t g_cores_once = PTHREAD_ONCE_INIT;
static void read_cores(void) {
  g_cores = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef __linux__
  cpu_set_t s;
  if (sched_getaffinity(0, sizeof s, &s) == 0 && CPU_COUNT(&s) > 0 && CPU_COUNT(&s) < g_cores) g_cores = CPU_COUNT(&s);
#endif
}

int ws_emu_cores(void) {
  pthread_once(&g_cores_once, read_cores);
  return g_cores > 0 ? (g_cores > WS_EMU_MAX_THREADS ? WS_EMU_MAX_THREADS : (int)g_cores) : 1;
}
