// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: index 1073741825 of an 8-byte int block (line 8) is the byte offset 2^32 + 4, out of bounds; wrapped at 32 bits it would look like offset 4.
#include <stdlib.h>
int main(void) {
  int *p = malloc(8);
  if (!p) return 0;
  int k = 1073741825;
  p[k] = 1;
  free(p);
  return 0;
}
