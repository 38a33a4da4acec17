// check: valid-memsafety
// expect: TRUE
// Why: on a nondeterministic error path the buffer is freed and the pointer reset to NULL (line 27), so the final free is either the only free or a harmless free(NULL).
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
    s.buf = NULL; /* OK: free(NULL) below is a no-op */
  }

  free(s.buf);
  return 0;
}
