// check: unreach-call
// expect: TRUE
// Why: memset of part of a malloc'ed block zeroes exactly that part (line 10) and a byte pattern fills ints bytewise (line 12); neighbouring bytes keep their values.
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
int main(void) {
  int *p = malloc(3 * sizeof(int));
  if (!p) return 0;
  p[2] = 7;
  memset(p, 0, 2 * sizeof(int));
  if (p[0] != 0 || p[1] != 0 || p[2] != 7) reach_error();
  memset(p, 1, sizeof(int));
  if (p[0] != 0x01010101 || p[2] != 7) reach_error();
  ((char *)p)[8] = 0;
  if (p[2] != 0) reach_error();
  free(p);
  return 0;
}
