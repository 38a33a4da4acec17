/* Seed 003 (Itzhaky, Bjorner, Reps, Sagiv, Thakur, "Property-Directed Shape Analysis", CAV 2014),
 * Table 6 benchmark re-created: buggy twin of reverse.c.
 *
 * Table 6 row: reverse (Table 1 predicates only; paper: 5.35 s for safety and integrity,
 * 146.42 s with the additional property).
 * Operation: reverse(h) reverses the list h in place, in one loop, and returns the new head.
 * Checked property (Table 7): if x comes before y in the input (x<n+>y, both non-null), x
 * comes after y in the output: from the new head the walk meets y, and from y->n it meets x.
 * Then the list is freed (a cycle in the output would make this walk read a freed node).
 * Bug: in the caller, not in reverse(): y is chosen from x instead of from x->n, so y may be
 * x itself and the precondition "x comes before y" is too weak (compare Table 8's insert).
 * reverse() itself is correct and every node stays in the list, so memory safety holds.
 * One node, x == y == h: after y the walk does not meet x again.
 * Expected: FALSE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct node {
  int data;
  struct node *n;
} *List;

List reverse(List h) {
  List r = NULL;
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
    y = x; /* BUG: should be y = x->n; y may be x itself */
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
