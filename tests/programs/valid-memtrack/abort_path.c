// check: valid-memsafety
// expect: TRUE
// Why: a list is built, then checked cell by cell with a check that may fail and end the run with abort() while the list is still held by `head` (the blocks stay reachable: no leak); otherwise the list is freed. Before calls that may end the run kept the pointers of their caller live, the shape analysis counted `head` as dead on the failing branch and ended UNKNOWN.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct cell {
  struct cell *next;
};

static struct cell *push(struct cell *head) {
  struct cell *c = malloc(sizeof *c);
  if (!c)
    abort();
  c->next = head;
  return c;
}

int main(void) {
  struct cell *head = NULL;
  while (__VERIFIER_nondet_int())
    head = push(head);
  struct cell *cur = head;
  int round;
  for (round = 3; cur; round++) {
    if (round > 5)
      goto fail;
    while (cur) {
      int seen = __VERIFIER_nondet_int();
      if (seen == round) {
        cur = cur->next;
      } else if (seen == round + 1 && round < 5) {
        break;
      } else {
        goto fail;
      }
    }
  }
  while (head) {
    struct cell *next = head->next;
    free(head);
    head = next;
  }
  return 0;
fail:
  abort();
}
