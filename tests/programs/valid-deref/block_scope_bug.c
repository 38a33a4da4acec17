// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: as block_scope.c, but the next iteration writes through `seen` (line 20), which still points to the previous iteration's `tmp`: that object's lifetime ended with its block.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  struct node *next;
  int v;
};

int main(void) {
  struct node *head = NULL;
  struct node *seen = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node tmp;
    struct node *t = &tmp;
    if (seen) /* BUG: seen points to the last iteration's tmp, which died at its end */
      seen->v = 1;
    t->v = __VERIFIER_nondet_int();
    t->next = head;
    struct node *c = malloc(sizeof *c);
    if (!c)
      break;
    *c = tmp;
    head = c;
    seen = t;
    seen->v = 0;
  }
  while (head) {
    struct node *x = head->next;
    free(head);
    head = x;
  }
  return 0;
}
