// check: valid-memsafety
// expect: TRUE
// Why: unsigned indices of 2^31 and more into a block of 3000000000 bytes are in bounds (line 9); they are never read as negative offsets.
#include <stdlib.h>
int main(void) {
  unsigned i = 2147483648u;
  char *p = malloc(3000000000u);
  if (!p) return 0;
  p[i] = 1;
  p[2999999999u] = 2;
  free(p);
  return 0;
}
