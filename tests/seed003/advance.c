/* A function that overwrites its parameter: in a contract's `ensures`, `h` is the value at
 * entry (C passes it by value), so `n(h, result)` holds and `result == h` does not.
 * Expected: TRUE (unreach-call, valid-memsafety)
 */
#include <stdlib.h>

typedef struct node {
  struct node *n;
} *List;

List advance(List h) {
  h = h->n;
  return h;
}

int main(void) {
  List h = malloc(sizeof(struct node));
  if (h == NULL)
    return 0;
  h->n = NULL;
  List r = advance(h);
  free(h);
  return r == NULL ? 0 : 1;
}
