// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the range block is allocated with the size of one int (line 22), so writing its upper bound (line 25) is outside the block.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct range {
  int lo;
  int hi;
};

struct segment {
  struct segment *next;
  struct range *range;
};

int main(void) {
  struct segment *first = NULL;
  while (__VERIFIER_nondet_int()) {
    struct segment *s = malloc(sizeof *s);
    if (!s) abort();
    s->range = malloc(sizeof(int));
    if (!s->range) abort();
    s->range->lo = 0;
    s->range->hi = 10;
    s->next = first;
    first = s;
  }
  for (struct segment *s = first; s; s = s->next) {
    if (s->range->lo < s->range->hi)
      s->range->hi = s->range->lo;
  }
  while (first) {
    struct segment *next = first->next;
    free(first->range);
    free(first);
    first = next;
  }
  return 0;
}
