// check: valid-memsafety
// expect: TRUE
// Why: container_of subtracts an unsigned offsetof from a member's address (line 12): the pointer moves back to the start of the node, it does not wrap to a huge forward offset.
#include <stddef.h>
#include <stdlib.h>
struct list_head { struct list_head *next, *prev; };
struct node { int value; struct list_head link; };
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
int main(void) {
  struct node *n = malloc(sizeof *n);
  if (!n) return 0;
  struct list_head *l = &n->link;
  struct node *back = container_of(l, struct node, link);
  back->value = 1;
  char *p = (char *)n + sizeof *n;
  p -= (unsigned)sizeof(int);
  *p = 0;
  free(back);
  return 0;
}
