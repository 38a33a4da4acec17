// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the build loop is unbounded, but the free loop reads head->data after free(head) (line 30), a use after free reachable with a single node (the next link was saved, so nothing is lost first).
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int data;
  struct node *next;
};

int main(void) {
  struct node *head = NULL;
  struct node *p;

  while (__VERIFIER_nondet_int()) {
    p = malloc(sizeof *p);
    if (!p)
      abort();
    p->data = __VERIFIER_nondet_int();
    p->next = head;
    head = p;
  }

  int found = 0;
  while (head != NULL) {
    p = head->next;
    free(head);
    found |= head->data == 42; /* BUG: use after free */
    head = p;
  }
  return found;
}
