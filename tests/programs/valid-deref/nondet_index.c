// check: valid-memsafety
// expect: TRUE
// Why: writes a calloc'ed array of 4 ints at a nondeterministic index that __VERIFIER_assume restricts to 1..3 (line 29); correct: the explorer splits the state on the index's three possible values.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

struct buf {
  int len;
  int *data;
};

int main(void) {
  struct buf *b = malloc(sizeof(struct buf));
  if (!b)
    abort();
  b->len = 4;
  b->data = calloc(b->len, sizeof(int));
  if (!b->data) {
    free(b);
    abort();
  }
  b->data[0] = b->len;

  int idx = __VERIFIER_nondet_int();
  __VERIFIER_assume(idx >= 1 && idx < b->len);
  b->data[idx] = 7; /* OK: idx in 1..3, but nondeterministic */

  int i, s = 0;
  for (i = 0; i < b->len; i++)
    s += b->data[i];

  free(b->data);
  free(b);
  return s == 11 ? 0 : 1;
}
