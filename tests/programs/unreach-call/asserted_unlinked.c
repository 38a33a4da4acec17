// check: unreach-call
// expect: TRUE
// Why: a cell chosen anywhere in an unbounded list is unlinked (lines 24-31) and the walk over the rest asserts it is not met again (line 42), a comparison of pointers passed to __VERIFIER_assert; the unlinked cell is freed last.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "asserted_unlinked.c", 8, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: reach_error(); abort(); } }

struct cell { struct cell *next; int value; };

struct cell *build(void) {
  struct cell *head = NULL;
  while (__VERIFIER_nondet_int()) {
    struct cell *c = malloc(sizeof *c);
    if (!c) abort();
    c->next = head;
    head = c;
  }
  return head;
}

struct cell *unlink_cell(struct cell *head, struct cell *x) {
  if (head == x)
    return head->next;
  struct cell *p = head;
  while (p->next != x)
    p = p->next;
  p->next = x->next;
  return head;
}

int main(void) {
  struct cell *head = build();
  if (!head) return 0;
  struct cell *x = head;
  while (x->next && __VERIFIER_nondet_int())
    x = x->next;
  head = unlink_cell(head, x);
  for (struct cell *p = head; p; p = p->next)
    __VERIFIER_assert(p != x);
  free(x);
  while (head) {
    struct cell *t = head->next;
    free(head);
    head = t;
  }
  return 0;
}
