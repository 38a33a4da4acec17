// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: the cleanup frees only the boxes of positive values (line 37); the box of any other value is lost with its item.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct item {
  struct item *next;
  long *box;
};

static long *box_value(long v) {
  long *b = malloc(sizeof(long));
  if (!b)
    abort();
  *b = v;
  return b;
}

int main(void) {
  struct item *items = NULL;
  while (__VERIFIER_nondet_int()) {
    long *b = box_value(__VERIFIER_nondet_int());
    struct item *it = malloc(sizeof(struct item));
    if (!it)
      abort();
    it->box = b;
    it->next = items;
    items = it;
  }
  long sum = 0;
  for (struct item *it = items; it; it = it->next)
    sum += *it->box;
  while (items) {
    struct item *next = items->next;
    long *b = items->box;
    if (*b > 0) free(b);
    free(items);
    items = next;
  }
  return 0;
}
