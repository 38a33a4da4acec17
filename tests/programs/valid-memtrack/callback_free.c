// check: valid-memsafety
// data-model: LP64
// expect: TRUE
// Why: an unbounded list is freed cell by cell through a function pointer chosen once between two destructors (line 14), both of which free the cell; the front end turns the call through the pointer (line 24) into direct calls of the two functions it can name.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node { struct node *next; int v; };
static void drop(struct node *n) { free(n); }
static void drop_clearing(struct node *n) { n->v = 0; free(n); }

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
