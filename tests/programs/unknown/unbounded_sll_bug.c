// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the build loop is unbounded, but the free loop reads head->next after free(head) (line 28), a use after free reachable with a single node.
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

  while (head != NULL) {
    free(head);
    head = head->next; /* BUG: use after free */
  }
  return 0;
}
