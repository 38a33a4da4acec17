/* Only the head of a list is freed: the rest is reached only through the freed node, so it
 * is lost (valid-memtrack). Expected: FALSE (valid-memtrack) when the list has two nodes. */
extern int __VERIFIER_nondet_int(void);
#include <stdlib.h>

struct node {
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
  if (h != NULL)
    free(h);
  while (__VERIFIER_nondet_int()) {
  }
  return 0;
}
