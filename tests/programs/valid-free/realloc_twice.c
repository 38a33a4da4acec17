// check: valid-memsafety
// expect: TRUE
// Why: after a successful realloc only the new block is freed (line 11); when realloc fails, the old block is still owned and freed (line 9).
#include <stdlib.h>
int main(void) {
  int *p = malloc(sizeof(int));
  if (!p) return 0;
  int *q = realloc(p, 4 * sizeof(int));
  if (!q) { free(p); return 0; }
  q[3] = 1;
  free(q);
  return 0;
}
