// check: valid-memsafety
// expect: FALSE(valid-free)
// Why: the union's integer view is incremented by 1 (line 11), so free receives a pointer into the middle of the block.
#include <stdint.h>
#include <stdlib.h>
union view { int *p; uintptr_t i; };
int main(void) {
  union view v;
  v.p = malloc(sizeof(int));
  if (!v.p) return 0;
  v.i += 1;
  free(v.p);
  return 0;
}
