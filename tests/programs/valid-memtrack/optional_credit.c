// check: valid-memsafety
// expect: TRUE
// Why: each order may carry one credit note of its own type (NULL when it has none); a pass walks every credit chain, the clean-up frees credit and order. Ownership predicates of `credit` prove it; FineTune first picks a tree over both fields (fewer predicates), which rules out one spurious leak and lets back another that an earlier choice had ruled out: without requiring each choice to rule out every spurious path so far, the choices go round until the refinement limit.
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
  while (first != NULL) {
    last = first->credit;
    if (last != NULL)
      free(last);
    last = first->next;
    free(first);
    first = last;
  }
  return 0;
}
