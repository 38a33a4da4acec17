// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the assumption allows idx == 4 (line 24), so b->data[idx] = 7 writes one int past the end of the 4-int heap block.
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
  __VERIFIER_assume(idx >= 0 && idx <= b->len); /* BUG: allows idx == 4 */
  b->data[idx] = 7;

  int i, s = 0;
  for (i = 0; i < b->len; i++)
    s += b->data[i];

  free(b->data);
  free(b);
  return s == 7 ? 0 : 1;
}
