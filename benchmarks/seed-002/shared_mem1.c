/* Seed 002 (Malik, Hruska, Schrammel, Vojnar, FMCAD 2018), Table II benchmark re-created.
 *
 * Models: workers in a ring sharing one resource. The workers form a cyclic singly-linked
 * list of unbounded length, and every node's field mem points to the same shared object
 * (allocated once) holding a usage counter in 0..3. A loop walks around the ring; each
 * worker increments the shared counter through its own mem pointer, resetting it to 0 when
 * it is at the limit, and the bound is asserted through the next worker's mem pointer.
 * Invariant: ao.mem = &m for every node object, m.counter in [0,3].
 *
 * Table II row: SM1.
 * Expected: TRUE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

#define LIMIT 3

typedef struct mem {
  int counter;
} Mem;

typedef struct node {
  Mem *mem;
  struct node *next;
} Node;

int main(void) {
  Mem *m = malloc(sizeof(Mem));
  if (m == NULL) return 0;
  m->counter = 0;

  Node *head = malloc(sizeof(Node));
  if (head == NULL) return 0;
  head->mem = m;
  head->next = head;
  Node *last = head;
  while (__VERIFIER_nondet_int()) {
    Node *n = malloc(sizeof(Node));
    if (n == NULL) return 0;
    n->mem = m;
    n->next = head;
    last->next = n;
    last = n;
  }

  Node *p = head;
  while (__VERIFIER_nondet_int()) {
    if (p->mem->counter < LIMIT) p->mem->counter++;
    else p->mem->counter = 0;
    p = p->next;
    if (!(p->mem->counter >= 0 && p->mem->counter <= LIMIT)) reach_error();
  }
  return 0;
}
