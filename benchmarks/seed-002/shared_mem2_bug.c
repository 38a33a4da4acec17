/* Seed 002 (Malik, Hruska, Schrammel, Vojnar, FMCAD 2018), Table II benchmark re-created,
 * with one bug.
 *
 * Models: as shared_mem2.c, a ring of clients sharing two resources. The clients form a
 * cyclic doubly-linked list of unbounded length; each node's field mem points to one of
 * two shared objects (each allocated once, chosen per node at creation). A shared object
 * holds its own bounds lo, hi (0..5 for the first, 10..15 for the second) and a level val.
 * A loop moves around the ring in either direction: moving forward increments the current
 * node's level (wrapping from hi to lo), moving backward decrements it (wrapping from lo
 * to hi). The bounds are asserted through the mem pointer of the node reached. The bug:
 * the backward move tests val >= lo before decrementing, so a level at its lower bound
 * drops below it. The first object starts at its lower bound 0, so one backward step from
 * the head (even in a one-node ring) reaches the error.
 *
 * Table II row: SM2 (buggy twin).
 * Expected: FALSE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct mem {
  int lo;
  int hi;
  int val;
} Mem;

typedef struct node {
  Mem *mem;
  struct node *next;
  struct node *prev;
} Node;

int main(void) {
  Mem *m1 = malloc(sizeof(Mem));
  Mem *m2 = malloc(sizeof(Mem));
  if (m1 == NULL || m2 == NULL) return 0;
  m1->lo = 0;
  m1->hi = 5;
  m1->val = 0;
  m2->lo = 10;
  m2->hi = 15;
  m2->val = 10;

  Node *head = malloc(sizeof(Node));
  if (head == NULL) return 0;
  head->mem = m1;
  head->next = head;
  head->prev = head;
  while (__VERIFIER_nondet_int()) {
    Node *n = malloc(sizeof(Node));
    if (n == NULL) return 0;
    n->mem = __VERIFIER_nondet_int() ? m1 : m2;
    /* insert n before head, i.e. at the end of the ring */
    n->next = head;
    n->prev = head->prev;
    head->prev->next = n;
    head->prev = n;
  }

  Node *p = head;
  while (__VERIFIER_nondet_int()) {
    Mem *m = p->mem;
    if (__VERIFIER_nondet_int()) {
      if (m->val < m->hi) m->val++;
      else m->val = m->lo;
      p = p->next;
    } else {
      if (m->val >= m->lo) m->val--; /* BUG: should be m->val > m->lo */
      else m->val = m->hi;
      p = p->prev;
    }
    if (!(p->mem->lo <= p->mem->val && p->mem->val <= p->mem->hi)) reach_error();
  }
  return 0;
}
