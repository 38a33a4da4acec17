// check: valid-memsafety
// malloc: never-fails
// expect: TRUE
// Why: an unbounded list built from unchecked allocations (line 16) and freed node by node; under SV-COMP's rule that allocation never fails the shape analysis proves it memory safe. The twin is the same program where malloc may fail.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  struct node *next;
  int data;
};

int main(void) {
  struct node *head = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof(struct node)); /* OK: allocation never fails */
    n->data = 0;
    n->next = head;
    head = n;
  }
  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
