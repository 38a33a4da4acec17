// check: valid-memsafety
// expect: TRUE
// Why: the block is written as an int only before it becomes a node (line 13); from then on it is read and written as a node (lines 15-17).
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
  if (n->next)
    n->next->next = NULL;
  free(n);
  return 0;
}
