/* Seed 003 (Itzhaky, Bjorner, Reps, Sagiv, Thakur, "Property-Directed Shape Analysis", CAV 2014),
 * Table 6 benchmark re-created.
 *
 * Table 6 row: make doubly-linked (Table 1 predicates only; paper: 18.91 s for safety and
 * integrity, 1086.61 s with the additional property and the rev family, R).
 * Operation: make_dll(h) turns the singly-linked list h (n fields; the p fields are NULL)
 * into a doubly-linked one, in one loop that sets each node's p to the node before it.
 * Checked property (Table 7): p is the inverse of n within the list rooted at h: h->p == NULL,
 * and for every node q of the list, q->n == NULL || q->n->p == q. Then the list is freed.
 * Expected: TRUE (unreach-call, valid-memsafety)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct node {
  int data;
  struct node *n;
  struct node *p;
} *List;

void make_dll(List h) {
  List q = NULL;
  List c = h;
  while (c != NULL) {
    c->p = q;
    q = c;
    c = c->n;
  }
}

int main(void) {
  List h = NULL;
  List q = NULL;
  while (__VERIFIER_nondet_int()) {
    List t = malloc(sizeof(struct node));
    if (t == NULL)
      abort();
    t->data = __VERIFIER_nondet_int();
    t->n = h;
    t->p = NULL;
    h = t;
  }

  make_dll(h);

  /* Table 7: p is the inverse of n within the list */
  if (h != NULL && h->p != NULL) {
    reach_error();
    abort();
  }
  q = h;
  while (q != NULL) {
    if (q->n != NULL && q->n->p != q) {
      reach_error();
      abort();
    }
    q = q->n;
  }

  while (h != NULL) {
    q = h;
    h = h->n;
    free(q);
  }
  return 0;
}
