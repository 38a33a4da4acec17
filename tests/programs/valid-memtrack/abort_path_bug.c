// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: as abort_path.c, but the failing branch drops the list (head = NULL, line 46) before abort(): its blocks are lost.
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
  head = NULL;
  abort();
}
