// check: valid-memsafety
// expect: TRUE
// Why: each item's value is boxed in a block allocated through a local `long *` (line 13) and handed to the item (line 27); the sum loop reads the boxes (line 33) and the cleanup takes each box back into a local and frees it before its item (lines 36-38).
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
    free(b);
    free(items);
    items = next;
  }
  return 0;
}
