// check: valid-memcleanup
// expect: FALSE(valid-memcleanup)
// Why: when the third value is 13 the program calls abort() (line 18) while the buffer is still allocated; abort() ends the program, so the buffer is never freed.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
  int *buf = malloc(4 * sizeof(int));
  int i;
  if (buf == NULL)
    abort();
  for (i = 0; i < 4; i++)
    buf[i] = __VERIFIER_nondet_int();

  if (buf[2] == 13) {
    /* the buffer is not freed here */
    abort(); /* BUG: abort() with buf still allocated */
  }

  free(buf);
  return 0;
}
