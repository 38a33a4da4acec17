/* A list is built, then its head is dropped without freeing: valid-memtrack is violated at
 * `h = NULL`. Expected: FALSE (valid-memtrack). */
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
  h = NULL;
  while (__VERIFIER_nondet_int()) {
  }
  return 0;
}
