// check: valid-memsafety
// expect: TRUE
// Why: allocates two cross-linked records and calls abort() whenever malloc returns NULL (line 16), so no NULL pointer is dereferenced; both records are freed.
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
  if (y == NULL) abort(); /* OK: malloc may return NULL */

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
