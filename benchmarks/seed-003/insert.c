/* Seed 003 (Itzhaky, Bjorner, Reps, Sagiv, Thakur, "Property-Directed Shape Analysis", CAV 2014),
 * Table 6 benchmark re-created; the operation is the paper's Fig. 1.
 *
 * Table 6 row: insert (Table 1 predicates only; paper: 26.38 s for safety and integrity,
 * 25.25 s with the additional property).
 * Operation: insert(e, h, x) links the new element e into the list h just before x, in one
 * loop that walks p to x with q one node behind. Precondition (Fig. 1): h != NULL, h<n+>x
 * (x is a later node of h, or NULL), e != NULL, e<n>NULL, and e is not in the list.
 * Checked property (Table 7, Fig. 1's Ensures): e is reachable from h and e->n == x (e is the
 * direct predecessor of x). Then the list, e included, is freed.
 * Expected: TRUE (unreach-call, valid-memsafety)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct node {
  int data;
  struct node *n;
} *List;

void insert(List e, List h, List x) {
  List p = h;
  List q = NULL;
  while (p != x && p != NULL) {
    q = p;
    p = p->n;
  }
  q->n = e;
  e->n = p;
}

int main(void) {
  List h = NULL;
  List x = NULL;
  List e = NULL;
  List p = NULL;
  while (__VERIFIER_nondet_int()) {
    List t = malloc(sizeof(struct node));
    if (t == NULL)
      abort();
    t->data = __VERIFIER_nondet_int();
    t->n = h;
    h = t;
  }
  /* precondition: h != NULL */
  if (h == NULL)
    return 0;
  /* precondition: h<n+>x, x a later node or NULL */
  x = h->n;
  while (x != NULL && __VERIFIER_nondet_int())
    x = x->n;
  /* precondition: e != NULL, e<n>NULL, e not in the list */
  e = malloc(sizeof(struct node));
  if (e == NULL)
    abort();
  e->data = __VERIFIER_nondet_int();
  e->n = NULL;

  insert(e, h, x);

  /* Table 7: e is reachable from h and is the direct predecessor of x */
  p = h;
  while (p != NULL && p != e)
    p = p->n;
  if (p == NULL) {
    reach_error();
    abort();
  }
  if (e->n != x) {
    reach_error();
    abort();
  }

  while (h != NULL) {
    p = h;
    h = h->n;
    free(p);
  }
  return 0;
}
