// check: valid-memsafety
// expect: TRUE
// Why: a pointer kept in a uintptr_t and in a union's integer view is converted back unchanged (lines 12-16) and freed once; moving the integer by 4 and back keeps the address.
#include <stdint.h>
#include <stdlib.h>
union view { int *p; uintptr_t i; };
int main(void) {
  int *p = malloc(2 * sizeof(int));
  if (!p) return 0;
  uintptr_t u = (uintptr_t)p;
  u += sizeof(int);
  int *q = (int *)u;
  *q = 1;
  union view v;
  v.p = (int *)(u - sizeof(int));
  free((int *)v.i);
  return 0;
}
