// check: valid-memcleanup
// expect: TRUE
// Why: when the nondeterministic third value is 13 the program calls abort() with the buffer still allocated (line 17), which ends the run without a memcleanup obligation; the normal path frees the buffer.
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
    abort(); /* OK: abnormal termination, no cleanup required */

  free(buf);
  return 0;
}
