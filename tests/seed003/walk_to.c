/* Seed 003, Example 1 / Table 2: `while (x != y) x = x->n;` from the head of a list to one
 * of its nodes. Memory safe (valid-deref): the invariant is x<n*>y (with y allocated).
 * With the `reach` family removed, no Boolean combination of the remaining predicates
 * separates the states where x has walked past y, so PDR answers "no inductive invariant
 * over these predicates".
 */
extern int __VERIFIER_nondet_int(void);
#include <stdlib.h>

struct node {
  int data;
  struct node *n;
};

int main(void) {
  struct node *h = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *t = malloc(sizeof(struct node));
    if (t == NULL)
      abort();
    t->n = h;
    h = t;
  }
  if (h == NULL)
    return 0;
  struct node *y = h;
  while (y->n != NULL && __VERIFIER_nondet_int())
    y = y->n;
  struct node *x = h;
  while (x != y)
    x = x->n;
  x->data = 1;
  return 0;
}
