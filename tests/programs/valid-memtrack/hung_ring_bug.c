// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: the twin of hung_ring.c whose head may skip two cells at once when emptying a ring of three or more: the second skipped cell is lost.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct cell { struct cell *next; };
struct holder { struct holder *next; struct cell *ring; };

int main(void) {
  struct holder *h = malloc(sizeof(*h));
  if (!h) abort();
  h->next = NULL;
  h->ring = malloc(sizeof(struct cell));
  if (!h->ring) abort();
  h->ring->next = h->ring;
  while (__VERIFIER_nondet_int()) {
    struct cell *c = malloc(sizeof(*c));
    if (!c) abort();
    c->next = h->ring->next;
    h->ring->next = c;
  }
  while (h->ring != h->ring->next) {
    struct cell *c = h->ring->next;
    h->ring->next = c->next != h->ring && __VERIFIER_nondet_int() ? c->next->next : c->next;
    free(c);
  }
  free(h->ring);
  free(h);
  return 0;
}
