// check: valid-memsafety
// expect: TRUE
// Why: fills a calloc'ed array of 4 ints through a bounded loop whose index stays in 0..3 (line 24), with a nondeterministic step that writes either every element or every other one, then sums the array.
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
  for (i = 0; i < b->len; i += step) /* OK: i stays in 0..3 */
    b->data[i] = i + 1;

  for (i = 0; i < b->len; i++)
    s += b->data[i];

  free(b->data);
  free(b);
  return (s == 10 || s == 4) ? 0 : 1;
}
