// check: unreach-call
// expect: TRUE
// Why: cells with a negative value are unlinked and freed (line 28); the check that every remaining value is non-negative is passed to __VERIFIER_assert as a comparison (line 35), which the shape analysis decides per cell with the field assertion `value < 0`.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "asserted_filter.c", 8, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: reach_error(); abort(); } }

struct cell { struct cell *next; int value; };

int main(void) {
  struct cell *head = NULL;
  while (__VERIFIER_nondet_int()) {
    struct cell *c = malloc(sizeof *c);
    if (!c) abort();
    c->value = __VERIFIER_nondet_int();
    c->next = head;
    head = c;
  }
  struct cell *prev = NULL, *p = head;
  while (p) {
    struct cell *succ = p->next;
    if (p->value < 0) {
      if (prev) prev->next = succ;
      else head = succ;
      free(p);
    } else {
      prev = p;
    }
    p = succ;
  }
  for (p = head; p; p = p->next)
    __VERIFIER_assert(p->value >= 0);
  while (head) {
    p = head->next;
    free(head);
    head = p;
  }
  return 0;
}
