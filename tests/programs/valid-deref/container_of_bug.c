// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the offset subtracted is one int too large (line 12), so the recovered pointer lies 4 bytes before the node and the write on line 13 is out of bounds.
#include <stddef.h>
#include <stdlib.h>
struct list_head { struct list_head *next, *prev; };
struct node { int value; struct list_head link; };
int main(void) {
  struct node *n = malloc(sizeof *n);
  if (!n) return 0;
  struct list_head *l = &n->link;
  struct node *back = (struct node *)((char *)l - offsetof(struct node, link) - sizeof(int));
  back->value = 1;
  free(n);
  return 0;
}
