/* A helper allocates a node into its own local and returns without handing it out: the node
 * is lost when the helper returns, before the program aborts. Expected: FALSE
 * (valid-memtrack). */
extern int __VERIFIER_nondet_int(void);
#include <stdlib.h>

struct node {
  struct node *n;
};

void scratch(void) {
  struct node *p = malloc(sizeof(struct node));
  if (p != NULL)
    p->n = NULL;
}

int main(void) {
  struct node *h = NULL;
  while (__VERIFIER_nondet_int()) {
    scratch();
    if (__VERIFIER_nondet_int())
      abort();
  }
  return 0;
}
