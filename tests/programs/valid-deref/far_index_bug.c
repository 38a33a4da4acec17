// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: p[1073741824] on line 8 is 4 GiB past an 8-byte block; the byte offset 2^32 must not wrap to 0 in a 32-bit data model.
#include <stdlib.h>
int main(void) {
  int *p = malloc(8);
  if (!p) return 0;
  p[1073741824] = 1;
  free(p);
  return 0;
}
