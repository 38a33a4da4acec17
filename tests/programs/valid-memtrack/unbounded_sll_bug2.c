// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: a cell is freed only once a 42 was found (line 30); otherwise head moves on and the last pointer to the cell is lost, with a single cell already.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int data;
  struct node *next;
};

int main(void) {
  struct node *head = NULL;
  struct node *p;

  while (__VERIFIER_nondet_int()) { /* OK: unbounded, every iteration is safe */
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
    found |= head->data == 42;
    if (found)
      free(head);
    head = p;
  }
  return found;
}
