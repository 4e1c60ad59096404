/*
 * arena.c — bump allocator for data with one lifetime (the IR of a module).
 * Blocks are chained; each allocation is 16-byte aligned and zeroed.
 * With WS_ARENA_DEBUG every allocation is its own malloc so ASan can see
 * overruns between neighbouring objects.
 */
#include "warpsight/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct block {
  struct block *next; /* previous block in the chain */
  size_t used;        /* bytes used in data[] */
  size_t cap;         /* bytes available in data[] */
  _Alignas(16) unsigned char data[];
} block;

struct ws_arena {
  block *head; /* current block (allocations come from here) */
};

enum { BLOCK_SIZE = 64 * 1024 };

ws_arena *ws_arena_new(void) { return calloc(1, sizeof(ws_arena)); }

void *ws_arena_alloc(ws_arena *a, size_t size) {
  if (!a) return NULL;
  size_t need = (size + 15) & ~(size_t)15;
  if (need < size) return NULL; /* overflow */
#ifdef WS_ARENA_DEBUG
  block *b = malloc(sizeof(block) + (need ? need : 1));
  if (!b) return NULL;
  b->next = a->head;
  b->used = b->cap = need;
  a->head = b;
  memset(b->data, 0, need ? need : 1);
  return b->data;
#else
  if (!a->head || a->head->cap - a->head->used < need) {
    size_t cap = need > BLOCK_SIZE ? need : BLOCK_SIZE;
    block *b = malloc(sizeof(block) + cap);
    if (!b) return NULL;
    b->next = a->head;
    b->used = 0;
    b->cap = cap;
    a->head = b;
  }
  void *p = a->head->data + a->head->used;
  a->head->used += need;
  memset(p, 0, need);
  return p;
#endif
}

char *ws_arena_strndup(ws_arena *a, const char *s, size_t n) {
  char *p = ws_arena_alloc(a, n + 1);
  if (!p) return NULL;
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}


void ws_arena_free(ws_arena *a) {
  if (!a) return;
  block *b = a->head;
  while (b) {
    block *next = b->next;
    free(b);
    b = next;
  }
  free(a);
}
