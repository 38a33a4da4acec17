// check: valid-memsafety
// malloc: may-fail
// expect: FALSE(valid-deref)
// Why: the same program as unchecked_list.c, but malloc may return NULL (the C standard), so n->data at line 17 dereferences NULL.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  struct node *next;
  int data;
};

int main(void) {
  struct node *head = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof(struct node)); /* BUG: unchecked; NULL when the allocation fails */
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
