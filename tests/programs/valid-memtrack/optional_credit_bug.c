// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: the twin of optional_credit.c whose clean-up skips the credit note of the first order: when that order has one, freeing the order loses it (line 62).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct order {
  struct order *next;
  struct order *credit;
};

static void fail(void) { abort(); }

static void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p)
    abort();
  return p;
}

int main(void) {
  struct order *first = xmalloc(sizeof(struct order));
  first->next = NULL;
  if (__VERIFIER_nondet_int()) {
    first->credit = NULL;
  } else {
    first->credit = xmalloc(sizeof(struct order));
    first->credit->next = NULL;
    first->credit->credit = NULL;
  }
  struct order *last = first;
  while (__VERIFIER_nondet_int()) {
    last->next = xmalloc(sizeof(struct order));
    last = last->next;
    last->next = NULL;
    if (__VERIFIER_nondet_int()) {
      last->credit = NULL;
    } else {
      last->credit = xmalloc(sizeof(struct order));
      last->credit->next = NULL;
      last->credit->credit = NULL;
    }
  }
  last = first;
  if (last == NULL) {
    fail();
    abort();
  }
  while (last != NULL) {
    struct order *r = last->credit;
    while (r != NULL)
      r = r->credit;
    last = last->next;
  }
  int skip = 1;
  while (first != NULL) {
    last = skip ? NULL : first->credit;
    skip = 0;
    if (last != NULL)
      free(last);
    last = first->next;
    free(first);
    first = last;
  }
  return 0;
}
