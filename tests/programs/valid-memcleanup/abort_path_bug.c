// check: valid-memcleanup
// expect: FALSE(valid-memcleanup)
// Why: when the third value is 13 the program calls exit(2) (line 17), a normal termination, while the buffer is still allocated.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
  int *buf = malloc(4 * sizeof(int));
  int i;
  if (buf == NULL)
    abort();
  for (i = 0; i < 4; i++)
    buf[i] = __VERIFIER_nondet_int();

  if (buf[2] == 13)
    exit(2); /* BUG: normal termination with buf still allocated */

  free(buf);
  return 0;
}
