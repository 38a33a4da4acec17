// check: valid-memcleanup
// expect: TRUE
// Why: when the nondeterministic third value is 13 the program frees the buffer (line 17) before calling abort(), because abort() ends the program and memory still allocated then violates memcleanup; the normal path frees the buffer before returning.
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
    free(buf); /* OK: release buf before the abnormal termination */
    abort();
  }

  free(buf);
  return 0;
}
