// check: unreach-call
// malloc: never-fails
// expect: FALSE(unreach-call)
// Why: the last check runs from stage 2 on (line 40), but at stage 2 the list may hold only three cells, so head->next->next->next is NULL and the error is called (line 42).
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
  if (stage >= 2) {
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
