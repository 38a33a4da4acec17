// check: valid-memsafety
// data-model: LP64
// expect: FALSE(valid-memtrack)
// Why: as callback_free.c, but the second destructor (line 10) clears the cell without freeing it, so the first cell handed to it is lost.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node { struct node *next; int v; };
static void drop(struct node *n) { free(n); }
static void drop_clearing(struct node *n) { n->v = 0; }

int main(void) {
  void (*destroy)(struct node *);
  if (__VERIFIER_nondet_int()) destroy = drop; else destroy = drop_clearing;
  struct node *h = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof *n);
    if (!n) abort();
    n->next = h;
    h = n;
  }
  while (h) {
    struct node *t = h->next;
    destroy(h);
    h = t;
  }
  return 0;
}
