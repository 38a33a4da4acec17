// check: unreach-call
// expect: FALSE(unreach-call)
// Why: a binding at the head of the map is kept (line 18 unlinks only when there is a predecessor), so the lookup after the removal (line 46) finds the key.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "key_removal_bug.c", 8, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: reach_error(); abort(); } }

struct binding { struct binding *next; int key; int value; };

struct binding *remove_key(struct binding *map, int k) {
  struct binding *prev = NULL, *p = map;
  while (p) {
    struct binding *succ = p->next;
    if (p->key == k) {
      if (prev) { prev->next = succ; free(p); } else prev = p;
    } else {
      prev = p;
    }
    p = succ;
  }
  return map;
}

int bound(struct binding *map, int k) {
  for (struct binding *p = map; p; p = p->next)
    if (p->key == k)
      return 1;
  return 0;
}

int main(void) {
  struct binding *map = NULL;
  while (__VERIFIER_nondet_int()) {
    struct binding *b = malloc(sizeof *b);
    if (!b) abort();
    b->key = __VERIFIER_nondet_int();
    b->value = __VERIFIER_nondet_int();
    b->next = map;
    map = b;
  }
  int k = __VERIFIER_nondet_int();
  map = remove_key(map, k);
  __VERIFIER_assert(!bound(map, k));
  while (map) {
    struct binding *t = map->next;
    free(map);
    map = t;
  }
  return 0;
}
