/* Seed 003 (Itzhaky, Bjorner, Reps, Sagiv, Thakur, "Property-Directed Shape Analysis", CAV 2014),
 * Table 8 benchmark re-created (buggy program); the operation is the paper's Fig. 1.
 *
 * Table 8 row: insert, "Precondition too weak (omitted e != null)" (paper: found in 4.46 s,
 * N = 1, 17 Z3 calls, counterexample size 8; the trace of Fig. 2). Same program as insert.c
 * except for the caller, which may pass e == NULL.
 * Operation: insert(e, h, x) links the new element e into the list h just before x, in one
 * loop that walks p to x with q one node behind. Precondition (Fig. 1): h != NULL, h<n+>x
 * (x is a later node of h, or NULL), e != NULL, e<n>NULL, and e is not in the list.
 * Checked property (Table 7, Fig. 1's Ensures): e is reachable from h and e->n == x (e is the
 * direct predecessor of x). Then the list, e included, is freed.
 * Bug: the caller allocates e only on some runs and does not establish e != NULL before the
 * call. With e == NULL the loop runs (at least once, since x != h), then q->n = e stores NULL
 * and e->n = p dereferences NULL. One list node, x == NULL, e == NULL suffices.
 * Expected: FALSE (valid-deref)
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
  if (__VERIFIER_nondet_int()) {
    e = malloc(sizeof(struct node));
    if (e == NULL)
      abort();
    e->data = __VERIFIER_nondet_int();
    e->n = NULL;
  }

  insert(e, h, x); /* BUG: e may be NULL; the precondition e != NULL is not established */

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
