// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the int view of the block overwrites the node's `next` after it was set to NULL (line 16), so `n->next->next` dereferences a pointer made of the int 1234 (line 18).
#include <stdlib.h>
struct node {
  struct node *next;
};

int main(void) {
  int *p = malloc(sizeof(struct node));
  if (!p)
    return 0;
  *p = 0;
  struct node *n = (struct node *)p;
  n->next = NULL;
  *p = 1234;
  if (n->next)
    n->next->next = NULL;
  free(n);
  return 0;
}
