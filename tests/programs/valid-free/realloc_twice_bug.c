// check: valid-memsafety
// expect: FALSE(valid-free)
// Why: a successful realloc frees p, so freeing p again on line 10 is a double free.
#include <stdlib.h>
int main(void) {
  int *p = malloc(sizeof(int));
  if (!p) return 0;
  int *q = realloc(p, 4 * sizeof(int));
  if (!q) { free(p); return 0; }
  free(p);
  free(q);
  return 0;
}
