// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the calloc result is not checked (line 20); calloc may return NULL, and then b->data[0] = b->len dereferences NULL before the nondeterministic indexing is reached.
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
  /* BUG: b->data is not checked, calloc may return NULL */
  b->data[0] = b->len;

  int idx = __VERIFIER_nondet_int();
  __VERIFIER_assume(idx >= 1 && idx < b->len);
  b->data[idx] = 7;

  int i, s = 0;
  for (i = 0; i < b->len; i++)
    s += b->data[i];

  free(b->data);
  free(b);
  return s == 11 ? 0 : 1;
}
