// check: valid-memsafety
// data-model: LP64
// expect: TRUE
// Why: a doubly-linked list built by appending at its tail (lines 23-24) is walked to its last cell (line 32) and freed from there along `prev` (line 36). While the cursor walks, the cells behind it stay reachable only backwards from it: the shape analysis reads that off the stored `prev*` closure, which the walk does not change.
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
  while (l->next)
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
