/* Seed 003 (Itzhaky, Bjorner, Reps, Sagiv, Thakur, "Property-Directed Shape Analysis", CAV 2014),
 * Table 6 benchmark re-created: buggy twin of delete.c.
 *
 * Table 6 row: delete (Table 1 predicates only; paper: 14.55 s for safety and integrity,
 * 9.32 s with the additional property).
 * Operation: delete(h, x) unlinks the node x from the non-empty list h (precondition:
 * x != NULL and h<n*>x). One loop finds the predecessor q of x; then x is bypassed (or h moves
 * on when x is the head). The caller owns x and frees it afterwards.
 * Checked property (Table 7): x is no longer reachable from the returned head. A walk calls
 * reach_error if it meets x. Then the list and x are freed.
 * Bug: when x is not the head, delete() assigns x->n to the local q instead of to the field
 * q->n, so x stays linked. Two nodes, x the second: the walk meets x.
 * Expected: FALSE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct node {
  int data;
  struct node *n;
} *List;

List delete(List h, List x) {
  List p = h;
  List q = NULL;
  while (p != x) {
    q = p;
    p = p->n;
  }
  if (q == NULL)
    h = x->n;
  else
    q = x->n; /* BUG: should be q->n = x->n; the list is left unchanged */
  return h;
}

int main(void) {
  List h = NULL;
  List x = NULL;
  List p = NULL;
  while (__VERIFIER_nondet_int()) {
    List t = malloc(sizeof(struct node));
    if (t == NULL)
      abort();
    t->data = __VERIFIER_nondet_int();
    t->n = h;
    h = t;
  }
  if (h == NULL)
    return 0;

  /* precondition: x is an arbitrary node of the list */
  x = h;
  while (x->n != NULL && __VERIFIER_nondet_int())
    x = x->n;

  h = delete(h, x);

  /* Table 7: x is no longer reachable from h */
  p = h;
  while (p != NULL) {
    if (p == x) {
      reach_error();
      abort();
    }
    p = p->n;
  }

  while (h != NULL) {
    p = h;
    h = h->n;
    free(p);
  }
  free(x);
  return 0;
}
