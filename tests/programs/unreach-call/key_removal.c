// check: unreach-call
// expect: TRUE
// Why: a list-based map: every binding of a key is unlinked and freed (line 19), after which a lookup of the key fails (line 47); the shape analysis relates each cell's key to the removed key (`key == remove_key::k`) and to its copies.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "key_removal.c", 8, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: reach_error(); abort(); } }

struct binding { struct binding *next; int key; int value; };

struct binding *remove_key(struct binding *map, int k) {
  struct binding *prev = NULL, *p = map;
  while (p) {
    struct binding *succ = p->next;
    if (p->key == k) {
      if (prev) prev->next = succ; else map = succ;
      free(p);
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
