/* Seed 003 (Itzhaky, Bjorner, Reps, Sagiv, Thakur, "Property-Directed Shape Analysis", CAV 2014),
 * Table 8 benchmark re-created (buggy program).
 *
 * Table 8 row: reverse, "Corrupted data structure: a cycle is created" (paper: found in
 * 0.96 s, N = 1, 9 Z3 calls, counterexample size 2). Same program as reverse.c except for
 * the bug.
 * Operation: reverse(h) reverses the list h in place, in one loop, and returns the new head.
 * Checked property (Table 7): if x comes before y in the input (x<n+>y, both non-null), x
 * comes after y in the output: from the new head the walk meets y, and from y->n it meets x.
 * Then the list is freed (a cycle in the output would make this walk read a freed node).
 * Bug: reverse() starts the reversed list at h instead of NULL, so the first node's n points
 * to itself: the output is the reversed list ending in a one-node cycle. No node is lost, and
 * the Table 7 check still passes (y and x are met before the cycle). The failure shows in the
 * final walk that frees the list: at the old head it moves h to the old head's n (the old head
 * again) and frees the old head; the next step reads h->n of the freed node (use after free,
 * an invalid dereference). One node suffices.
 * Expected: FALSE (valid-deref)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct node {
  int data;
  struct node *n;
} *List;

List reverse(List h) {
  List r = h; /* BUG: should be NULL; the old head ends up pointing to itself */
  List t = NULL;
  while (h != NULL) {
    t = h->n;
    h->n = r;
    r = h;
    h = t;
  }
  return r;
}

int main(void) {
  List h = NULL;
  List x = NULL;
  List y = NULL;
  List p = NULL;
  while (__VERIFIER_nondet_int()) {
    List t = malloc(sizeof(struct node));
    if (t == NULL)
      abort();
    t->data = __VERIFIER_nondet_int();
    t->n = h;
    h = t;
  }
  /* x: an arbitrary node or NULL; y: an arbitrary node strictly after x, or NULL */
  x = h;
  while (x != NULL && __VERIFIER_nondet_int())
    x = x->n;
  if (x != NULL) {
    y = x->n;
    while (y != NULL && __VERIFIER_nondet_int())
      y = y->n;
  }

  h = reverse(h);

  /* Table 7: x came before y, so y comes before x now */
  if (x != NULL && y != NULL) {
    p = h;
    while (p != NULL && p != y)
      p = p->n;
    if (p == NULL) {
      reach_error();
      abort();
    }
    p = p->n;
    while (p != NULL && p != x)
      p = p->n;
    if (p == NULL) {
      reach_error();
      abort();
    }
  }

  while (h != NULL) {
    p = h;
    h = h->n;
    free(p);
  }
  return 0;
}
