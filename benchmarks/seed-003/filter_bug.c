/* Seed 003 (Itzhaky, Bjorner, Reps, Sagiv, Thakur, "Property-Directed Shape Analysis", CAV 2014),
 * Table 6 benchmark re-created: buggy twin of filter.c.
 *
 * Table 6 row: filter (Table 1 predicates only; paper: 2.37 s for safety and integrity,
 * 55.53 s with the additional property).
 * Operation: filter(h) removes from the list h, and frees, every node that fails the filter
 * criterion (the criterion: data >= 0), in one loop with an iterator p and its predecessor q.
 * Checked property (Table 7): two arbitrary elements x and y that satisfy the criterion and
 * have an n-path from x to y keep that path: after the call x is reachable from h and y from
 * x. Also checked: every remaining node satisfies the criterion. Then the list is freed.
 * Bug: filter() also removes the nodes with data 0, which satisfy the criterion. One node
 * with data 0 (x == y == h): it is freed, and the walk from h does not meet x.
 * Expected: FALSE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct node {
  int data;
  struct node *n;
} *List;

List filter(List h) {
  List p = h;
  List q = NULL;
  while (p != NULL) {
    if (p->data <= 0) { /* BUG: should be p->data < 0; nodes with data 0 pass the filter */
      List t = p;
      p = p->n;
      if (q == NULL)
        h = p;
      else
        q->n = p;
      free(t);
    } else {
      q = p;
      p = p->n;
    }
  }
  return h;
}

int main(void) {
  List h = NULL;
  List x = NULL;
  List y = NULL;
  List p = NULL;
  int keep = 0;
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

  /* x: an arbitrary node; y: an arbitrary node reachable from x */
  x = h;
  while (x->n != NULL && __VERIFIER_nondet_int())
    x = x->n;
  y = x;
  while (y->n != NULL && __VERIFIER_nondet_int())
    y = y->n;
  /* the property is about x and y only if both satisfy the criterion (else they are freed) */
  keep = x->data >= 0 && y->data >= 0;

  h = filter(h);

  /* Table 7: x and y are still in the list and the path from x to y is kept */
  if (keep) {
    p = h;
    while (p != NULL && p != x)
      p = p->n;
    if (p == NULL) {
      reach_error();
      abort();
    }
    while (p != NULL && p != y)
      p = p->n;
    if (p == NULL) {
      reach_error();
      abort();
    }
  }
  /* every remaining node satisfies the criterion */
  p = h;
  while (p != NULL) {
    if (p->data < 0) {
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
  return 0;
}
