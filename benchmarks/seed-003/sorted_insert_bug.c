/* Seed 003 (Itzhaky, Bjorner, Reps, Sagiv, Thakur, "Property-Directed Shape Analysis", CAV 2014),
 * Table 6 benchmark re-created: buggy twin of sorted_insert.c.
 *
 * Table 6 row: sorted insert (predicates: Table 1 plus the sorted family, S; paper: 41.07 s
 * for safety and integrity, 51.46 s with the additional property).
 * Operation: sorted_insert(h, e) inserts the new element e into the list h, sorted by
 * non-decreasing data, before the first node whose data is not smaller than e's, in one loop;
 * it returns the new head. Precondition: h is sorted, e != NULL, e<n>NULL, e not in the list.
 * Checked property (Table 7): the list rooted at h stays sorted (every node's data is at most
 * its successor's). Then the list, e included, is freed.
 * Bug: the two conjuncts of the loop condition are swapped, so p->data is read before p is
 * checked against NULL. One node with data smaller than e's: the loop passes it, p becomes
 * NULL, and the next test dereferences NULL. The list stays sorted on every run that does
 * not fail this way.
 * Expected: FALSE (valid-deref)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct node {
  int data;
  struct node *n;
} *List;

List sorted_insert(List h, List e) {
  List p = h;
  List q = NULL;
  while (p->data < e->data && p != NULL) { /* BUG: swapped; the NULL test must come first */
    q = p;
    p = p->n;
  }
  e->n = p;
  if (q == NULL)
    return e;
  q->n = e;
  return h;
}

int main(void) {
  List h = NULL;
  List e = NULL;
  List p = NULL;
  /* precondition: a sorted list; each new head's value does not exceed the old head's */
  while (__VERIFIER_nondet_int()) {
    int v = __VERIFIER_nondet_int();
    List t = malloc(sizeof(struct node));
    if (t == NULL)
      abort();
    if (h != NULL && v > h->data)
      v = h->data;
    t->data = v;
    t->n = h;
    h = t;
  }
  /* precondition: e != NULL, e<n>NULL, e not in the list */
  e = malloc(sizeof(struct node));
  if (e == NULL)
    abort();
  e->data = __VERIFIER_nondet_int();
  e->n = NULL;

  h = sorted_insert(h, e);

  /* Table 7: the list rooted at h is sorted */
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
