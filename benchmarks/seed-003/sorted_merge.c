/* Seed 003 (Itzhaky, Bjorner, Reps, Sagiv, Thakur, "Property-Directed Shape Analysis", CAV 2014),
 * Table 6 benchmark re-created.
 *
 * Table 6 row: sorted merge (Table 1 predicates only; paper: 26.69 s for safety and integrity;
 * 256.41 s for the same goal with the sorted family S added: Table 7 has no additional
 * property for this row and the paper proved none).
 * Operation: sorted_merge(a, b) merges two lists sorted by non-decreasing data into one, in a
 * single loop that moves the smaller head to the tail t of the result; the rest of the list
 * that is left over is appended after the loop. It returns the head of the result.
 * Checked property (ours; the paper checks only safety and integrity for this row): the result
 * is sorted. Every node of a and b ends up in the result, which main then frees, so a lost
 * node would be a leak (valid-memtrack).
 * Expected: TRUE (unreach-call, valid-memsafety)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct node {
  int data;
  struct node *n;
} *List;

List sorted_merge(List a, List b) {
  List h = NULL;
  List t = NULL;
  List s = NULL;
  while (a != NULL && b != NULL) {
    if (a->data <= b->data) {
      s = a;
      a = a->n;
    } else {
      s = b;
      b = b->n;
    }
    if (t == NULL)
      h = s;
    else
      t->n = s;
    t = s;
  }
  if (a == NULL)
    s = b;
  else
    s = a;
  if (t == NULL)
    h = s;
  else
    t->n = s;
  return h;
}

int main(void) {
  List a = NULL;
  List b = NULL;
  List h = NULL;
  List p = NULL;
  /* precondition: two sorted lists; each new head's value does not exceed the old head's */
  while (__VERIFIER_nondet_int()) {
    int v = __VERIFIER_nondet_int();
    List t = malloc(sizeof(struct node));
    if (t == NULL)
      abort();
    if (a != NULL && v > a->data)
      v = a->data;
    t->data = v;
    t->n = a;
    a = t;
  }
  while (__VERIFIER_nondet_int()) {
    int v = __VERIFIER_nondet_int();
    List t = malloc(sizeof(struct node));
    if (t == NULL)
      abort();
    if (b != NULL && v > b->data)
      v = b->data;
    t->data = v;
    t->n = b;
    b = t;
  }

  h = sorted_merge(a, b);

  /* the merged list is sorted */
  p = h;
  while (p != NULL && p->n != NULL) {
    if (p->data > p->n->data) {
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
