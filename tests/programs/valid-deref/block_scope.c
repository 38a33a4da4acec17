// check: valid-memsafety
// expect: TRUE
// Why: each iteration fills a block-scope struct through a pointer to it and copies it into a new cell (line 20); the pointer never leaves the block, so no access reaches a dead local.
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
    seen = NULL;
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
