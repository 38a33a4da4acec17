// check: valid-memsafety
// expect: TRUE
// Why: a ring of cells held only by a holder's `ring` link grows by insertion behind its head (`c->next = h->ring->next; h->ring->next = c`) and is emptied the same way; after each insertion the rest of the ring is still reached from the link, through the new cell (the old paths rejoin at the head's old successor), and each removed cell is the only one the head skips.
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
    h->ring->next = c->next;
    free(c);
  }
  free(h->ring);
  free(h);
  return 0;
}
