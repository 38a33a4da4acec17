// check: valid-memsafety
// expect: TRUE
// Why: each segment owns a range block large enough for both bounds (line 22); the walk reads and writes both through the segment's raw field (lines 30-31).
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
    s->range = malloc(sizeof(struct range));
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
