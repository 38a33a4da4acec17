// check: unreach-call
// malloc: never-fails
// expect: TRUE
// Why: the cells appended after the head are stamped 1, 2, then 3 for every further cell, and `stage` follows; at stage 2 the list has at least three cells, and at stage 3 at least four, so neither check (lines 38, 42) fails. The proof needs the stamps stored (data == 1, 2, 3) as field assertions although no later path condition mentions them: they are the assertions held back from the stores and added when no other refinement is left.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct cell {
  struct cell *next;
  int data;
};

int main(void) {
  struct cell *head = malloc(sizeof *head);
  head->next = NULL;
  head->data = 0;
  struct cell *tail = head;
  int stage = 0;
  while (__VERIFIER_nondet_int()) {
    tail->next = malloc(sizeof *tail);
    tail = tail->next;
    tail->next = NULL;
    if (stage == 0) {
      tail->data = 1;
      stage = 1;
    } else if (stage == 1) {
      tail->data = 2;
      stage = 2;
    } else {
      tail->data = 3;
      stage = 3;
    }
  }
  if (stage >= 2) {
    if (head->next == NULL || head->next->next == NULL)
      reach_error();
  }
  if (stage == 3) {
    if (head->next->next->next == NULL)
      reach_error();
  }
  for (struct cell *c = head->next; c; c = c->next)
    if (c->data < 1)
      reach_error();
  while (head) {
    struct cell *n = head->next;
    free(head);
    head = n;
  }
  return 0;
}
