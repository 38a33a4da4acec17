/* Seed 003 (Itzhaky, Bjorner, Reps, Sagiv, Thakur, "Property-Directed Shape Analysis", CAV 2014),
 * Table 6 benchmark re-created: buggy twin of delete_all.c.
 *
 * Table 6 row: deleteAll (predicates: Table 1 plus the stable family, St; paper: 6.77 s for
 * safety and integrity, 37.35 s with the additional property).
 * Operation: delete_all(h) frees every node of the list h in one loop (stable(h): every node
 * still reachable from the iterator is allocated, so no freed node is read).
 * Checked property (Table 7): an arbitrary non-null element x of the list becomes
 * non-allocated. C cannot test whether a block is allocated, so the property is checked as
 * valid-memtrack: main frees nothing itself and drops its last pointers (h and x) after the
 * call; a node that delete_all left allocated, x in particular, would be lost there.
 * Bug: the loop of delete_all() stops at the last node, which stays allocated. With one node
 * (x == h) it is lost when main drops h and x; with more, when delete_all returns.
 * Expected: FALSE (valid-memtrack)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct node {
  int data;
  struct node *n;
} *List;

void delete_all(List h) {
  while (h != NULL && h->n != NULL) { /* BUG: should be h != NULL; the last node is never freed */
    List t = h;
    h = h->n;
    free(t);
  }
}

int main(void) {
  List h = NULL;
  List x = NULL;
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

  /* x: an arbitrary non-null element of the list */
  x = h;
  while (x->n != NULL && __VERIFIER_nondet_int())
    x = x->n;

  delete_all(h);

  /* Table 7: x (and every other node) is no longer allocated; checked by valid-memtrack */
  h = NULL;
  x = NULL;
  return 0;
}
