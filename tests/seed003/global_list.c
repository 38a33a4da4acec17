/* A list held by a global at the end of main is not lost (valid-memtrack holds; only
 * valid-memcleanup would fail). Expected: TRUE (valid-memsafety). */
extern int __VERIFIER_nondet_int(void);
#include <stdlib.h>

struct node {
  struct node *n;
};

struct node *g = NULL;

int main(void) {
  while (__VERIFIER_nondet_int()) {
    struct node *t = malloc(sizeof(struct node));
    if (t == NULL)
      abort();
    t->n = g;
    g = t;
  }
  return 0;
}
