// check: unreach-call
// expect: FALSE(unreach-call)
// Why: memset(p, 1, 4) makes p[0] the int 0x01010101 (line 10), so the error is reached; the untouched p[1] keeps 5.
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
int main(void) {
  int *p = malloc(2 * sizeof(int));
  if (!p) return 0;
  p[1] = 5;
  memset(p, 1, sizeof(int));
  if (p[0] == 0x01010101 && p[1] == 5) reach_error();
  free(p);
  return 0;
}
