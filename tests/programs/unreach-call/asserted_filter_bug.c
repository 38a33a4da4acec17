// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the filter keeps cells whose value is -1 (line 25 tests `< -1`), so the check that every remaining value is non-negative (line 35) fails on a list holding -1.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "asserted_filter_bug.c", 8, "reach_error"); }
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
    if (p->value < -1) {
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
