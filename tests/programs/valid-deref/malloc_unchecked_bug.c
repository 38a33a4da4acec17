// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the second malloc result is not checked (line 16); malloc may return NULL, and then y->a = 3 dereferences NULL.
#include <stdlib.h>

struct pair {
  int a, b;
  struct pair *other;
};

int main(void) {
  struct pair *x = malloc(sizeof(struct pair));
  if (x == NULL)
    abort();
  struct pair *y = malloc(sizeof(struct pair));
  /* BUG: y is not checked, malloc may return NULL */

  x->a = 1;
  x->b = 2;
  x->other = y;
  y->a = 3;
  y->b = 4;
  y->other = x;

  int s = x->other->a + y->other->b;
  free(x);
  free(y);
  return s == 5 ? 0 : 1;
}
