/* The buggy twin of walk_to.c: y may be NULL (the walk of y goes one step too far), so x
 * walks off the end of the list and the walk dereferences NULL (valid-deref).
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
  while (y != NULL && __VERIFIER_nondet_int())
    y = y->n;
  struct node *x = h;
  while (x != y)
    x = x->n;
  x->data = 1;
  return 0;
}
