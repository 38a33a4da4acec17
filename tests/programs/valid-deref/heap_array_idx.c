// check: valid-memsafety
// expect: TRUE
// Why: writes one element of a calloc'ed array of 4 ints at a nondeterministic index that __VERIFIER_assume restricts to 0..3 (line 24), then sums the zero-initialised array.
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
  if (!b->data)
    abort();

  int idx = __VERIFIER_nondet_int();
  __VERIFIER_assume(idx >= 0 && idx < b->len); /* OK: idx in 0..3 */
  b->data[idx] = 7;

  int i, s = 0;
  for (i = 0; i < b->len; i++)
    s += b->data[i];

  free(b->data);
  free(b);
  return s == 7 ? 0 : 1;
}
