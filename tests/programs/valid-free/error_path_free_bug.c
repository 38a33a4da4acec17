// check: valid-memsafety
// expect: FALSE(valid-free)
// Why: the error path frees the buffer without resetting the pointer (line 27), so when the nondeterministic condition holds the final free(s.buf) is a double free.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct session {
  int id;
  int *buf;
};

int main(void) {
  struct session s;
  int i;

  s.id = 1;
  s.buf = malloc(4 * sizeof(int));
  if (!s.buf)
    abort();
  for (i = 0; i < 4; i++)
    s.buf[i] = i;

  if (__VERIFIER_nondet_int()) {
    /* error: drop the buffer early */
    free(s.buf);
    /* BUG: s.buf is not reset, the free below frees it again */
  }

  free(s.buf);
  return 0;
}
