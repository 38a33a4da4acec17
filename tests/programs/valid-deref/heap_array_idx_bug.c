// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the fill loop runs while i <= b->len (line 24), so with step 1 or 2 it writes b->data[4], one int past the end of the 4-int heap block.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

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

  int i, s = 0;
  int step = __VERIFIER_nondet_int() ? 1 : 2;
  for (i = 0; i <= b->len; i += step) /* BUG: off by one, also writes b->data[4] */
    b->data[i] = i + 1;

  for (i = 0; i < b->len; i++)
    s += b->data[i];

  free(b->data);
  free(b);
  return (s == 10 || s == 4) ? 0 : 1;
}
