// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the cell is unlinked only when it is the head; elsewhere its predecessor keeps pointing to it (line 30), so the walk meets it and the assertion (line 42) fails.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "asserted_unlinked_bug.c", 8, "reach_error"); }
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
  p->next = x;
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
