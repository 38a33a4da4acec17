// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the walk that sets prev sometimes does not advance `before` (line 25), so a cell's prev skips its predecessor and the assertion (line 28) fails.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "asserted_inverse_bug.c", 8, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: reach_error(); abort(); } }

struct cell { struct cell *next; struct cell *prev; };

int main(void) {
  struct cell *head = NULL;
  while (__VERIFIER_nondet_int()) {
    struct cell *c = malloc(sizeof *c);
    if (!c) abort();
    c->next = head;
    c->prev = NULL;
    head = c;
  }
  struct cell *before = NULL;
  for (struct cell *x = head; x; x = x->next) {
    x->prev = before;
    if (__VERIFIER_nondet_int()) before = x;
  }
  for (struct cell *x = head; x && x->next; x = x->next)
    __VERIFIER_assert(x->next->prev == x);
  while (head) {
    struct cell *t = head->next;
    free(head);
    head = t;
  }
  return 0;
}
