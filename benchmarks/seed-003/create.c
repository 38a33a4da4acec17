/* Seed 003 (Itzhaky, Bjorner, Reps, Sagiv, Thakur, "Property-Directed Shape Analysis", CAV 2014),
 * Table 6 benchmark re-created.
 *
 * Table 6 row: create (Table 1 predicates only; paper: 1.37 s for safety and integrity,
 * 8.19 s with the additional property).
 * Operation: create() builds a fresh acyclic NULL-terminated list of nondeterministic length
 * in one loop, by prepending newly allocated nodes, and returns its head h.
 * Checked property (Table 7): the node pointed to by the global x, allocated before the call,
 * is not reachable from h. A walk from h calls reach_error if it meets x. Then the list and
 * x are freed.
 * Expected: TRUE (unreach-call, valid-memsafety)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct node {
  int data;
  struct node *n;
} *List;

List x = NULL; /* the paper's global x, allocated before the call */

List create(void) {
  List h = NULL;
  while (__VERIFIER_nondet_int()) {
    List t = malloc(sizeof(struct node));
    if (t == NULL)
      abort();
    t->data = __VERIFIER_nondet_int();
    t->n = h;
    h = t;
  }
  return h;
}

int main(void) {
  List h = NULL;
  List p = NULL;
  x = malloc(sizeof(struct node));
  if (x == NULL)
    abort();
  x->data = __VERIFIER_nondet_int();
  x->n = NULL;

  h = create();

  /* Table 7: x is not reachable from h */
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
  x = NULL;
  return 0;
}
