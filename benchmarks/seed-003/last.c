/* Seed 003 (Itzhaky, Bjorner, Reps, Sagiv, Thakur, "Property-Directed Shape Analysis", CAV 2014),
 * Table 6 benchmark re-created.
 *
 * Table 6 row: last (Table 1 predicates only; paper: 0.33 s for safety and integrity with the
 * invariant true, since every access is guarded; 7.49 s with the additional property).
 * Operation: last(h) returns the last node of the list h (NULL for the empty list), in one
 * loop that is entered only when h != NULL.
 * Checked property (Table 7): the function returns the last element: for an empty list the
 * result r is NULL; otherwise r != NULL, r->n == NULL, and r is reachable from h. Then the
 * list is freed.
 * Expected: TRUE (unreach-call, valid-memsafety)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct node {
  int data;
  struct node *n;
} *List;

List last(List h) {
  List p = h;
  if (p == NULL)
    return NULL;
  while (p->n != NULL)
    p = p->n;
  return p;
}

int main(void) {
  List h = NULL;
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

  r = last(h);

  /* Table 7: r is the last element of the list */
  if (h == NULL) {
    if (r != NULL) {
      reach_error();
      abort();
    }
  } else {
    if (r == NULL || r->n != NULL) {
      reach_error();
      abort();
    }
    p = h;
    while (p != NULL && p != r)
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
