/*
 * symtab.c — a chained hash table of names for the parser, with scopes:
 * entries are appended, a lookup finds the newest, and closing a scope
 * drops the newest entries (which head their chains).
 */
#include "ptx/ptx_int.h"
#include "util/vec.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

int ws_ptx_symtab_init(symtab *t, uint32_t nbuckets) {
  memset(t, 0, sizeof *t);
  uint32_t n = 64;
  while (n < nbuckets) n *= 2;
  t->buckets = malloc(n * sizeof *t->buckets);
  if (!t->buckets) return -1;
  memset(t->buckets, 0xff, n * sizeof *t->buckets);
  t->nbuckets = n;
  return 0;
}

void ws_ptx_symtab_free(symtab *t) {
  free(t->buckets);
  free(t->entries);
  memset(t, 0, sizeof *t);
}

void ws_ptx_symtab_clear(symtab *t) {
  if (t->buckets) memset(t->buckets, 0xff, t->nbuckets * sizeof *t->buckets);
  t->count = 0;
}

symtab_entry *ws_ptx_symtab_find(const symtab *t, const char *key, size_t len) {
  if (!t->nbuckets) return NULL;
  uint32_t i = t->buckets[hash(key, len) & (t->nbuckets - 1)];
  while (i != UINT32_MAX) {
    symtab_entry *e = &t->entries[i];
    if (e->len == len && memcmp(e->key, key, len) == 0) return e;
    i = e->next;
  }
  return NULL;
}

static int grow(symtab *t) {
  uint32_t n = t->nbuckets * 2;
  uint32_t *b = malloc(n * sizeof *b);
  if (!b) return -1;
  memset(b, 0xff, n * sizeof *b);
  /* Re-link in insertion order so newer entries stay ahead of older ones. */
  for (uint32_t i = 0; i < t->count; i++) {
    symtab_entry *e = &t->entries[i];
    uint32_t h = hash(e->key, e->len) & (n - 1);
    e->next = b[h];
    b[h] = i;
  }
  free(t->buckets);
  t->buckets = b;
  t->nbuckets = n;
  return 0;
}

int ws_ptx_symtab_add(symtab *t, const char *key, size_t len, uint32_t depth,
               uint32_t kind, uint32_t value) {
  if (t->count == UINT32_MAX || WS_VEC_RESERVE(t->entries, t->cap, (size_t)t->count + 1))
    return -1;
  if (t->count >= t->nbuckets && grow(t) < 0) return -1;
  uint32_t h = hash(key, len) & (t->nbuckets - 1);
  symtab_entry *e = &t->entries[t->count];
  e->key = key;
  e->len = (uint32_t)len;
  e->depth = depth;
  e->kind = kind;
  e->value = value;
  e->next = t->buckets[h];
  t->buckets[h] = t->count++;
  return 0;
}

void ws_ptx_symtab_pop(symtab *t, uint32_t depth) {
  while (t->count > 0 && t->entries[t->count - 1].depth >= depth) {
    symtab_entry *e = &t->entries[t->count - 1];
    uint32_t h = hash(e->key, e->len) & (t->nbuckets - 1);
    t->buckets[h] = e->next;
    t->count--;
  }
}
