/* Seed 003 (Itzhaky, Bjorner, Reps, Sagiv, Thakur, "Property-Directed Shape Analysis", CAV 2014),
 * Table 6 benchmark re-created: buggy twin of prev.c.
 *
 * Table 6 row: prev (Table 1 predicates only; paper: 0.21 s for safety and integrity with the
 * invariant true, since every access is guarded; 11.64 s with the additional property).
 * Operation: prev(h, x) returns the node just before x in the list h, or NULL when x is the
 * head, in one guarded loop. x is a node of the list or NULL (then the last node is returned).
 * Checked property (Table 7): the result r is the element just before x, if one exists: when
 * x == h, r == NULL; otherwise r != NULL and r->n == x. Then the list is freed.
 * Bug: the two statements of the loop body are swapped, so q follows p instead of trailing
 * it and the result is x itself. One node and x == NULL: r is NULL instead of the node.
 * Expected: FALSE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct node {
  int data;
  struct node *n;
} *List;

List prev(List h, List x) {
  List p = h;
  List q = NULL;
  while (p != NULL && p != x) {
    p = p->n; /* BUG: swapped; should be q = p; p = p->n; */
    q = p;
  }
  return q;
}

int main(void) {
  List h = NULL;
  List x = NULL;
  List r = NULL;
  List p = NULL;
  while (__VERIFIER_nondet_int()) {
    List t = malloc(sizeof(struct node));
    if (t == NULL)
      abort();
    t->data = __VERIFIER_nondet_int();
    t->n = h;
    h = t;
  }
  /* x: an arbitrary node of the list, or NULL */
  x = h;
  while (x != NULL && __VERIFIER_nondet_int())
    x = x->n;

  r = prev(h, x);

  /* Table 7: r is the element just before x, if one exists */
  if (x == h) {
    if (r != NULL) {
      reach_error();
      abort();
    }
  } else {
    if (r == NULL || r->n != x) {
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
