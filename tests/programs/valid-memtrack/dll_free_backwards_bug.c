// check: valid-memsafety
// data-model: LP64
// expect: FALSE(valid-memtrack)
// Why: as dll_free_backwards.c, but the walk stops one cell before the last (line 32); the last cell, which nothing but its predecessor points to, is lost when the predecessor is freed first.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct item {
  long key;
  struct item *next;
  struct item *prev;
};

static struct item *build(void) {
  struct item *first = calloc(1, sizeof *first);
  if (!first)
    abort();
  struct item *last = first;
  while (__VERIFIER_nondet_int()) {
    struct item *it = calloc(1, sizeof *it);
    if (!it)
      abort();
    last->next = it;
    it->prev = last;
    it->key = last->key + 1;
    last = it;
  }
  return first;
}

static void destroy(struct item *l) {
  while (l->next && l->next->next)
    l = l->next;
  while (l) {
    struct item *p = l->prev;
    free(l);
    l = p;
  }
}

int main(void) {
  destroy(build());
  return 0;
}
