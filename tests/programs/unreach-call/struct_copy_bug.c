// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the twin of struct_copy.c gives b a self-loop (line 20), which `*a = *b` (line 22) copies into a, so a->next is not NULL (line 23); found by the shape analysis too, once it copies struct members.
#include <stdlib.h>

extern void reach_error(void);

struct cell {
  struct cell *next;
  int tag;
};

int main(void) {
  struct cell *a = malloc(sizeof(struct cell));
  struct cell *b = malloc(sizeof(struct cell));
  if (!a || !b)
    return 0;
  a->next = b;
  a->tag = 1;
  b->next = b;
  b->tag = 3;
  *a = *b;
  if (a->next != NULL || a->tag != 3)
    reach_error();
  free(a);
  free(b);
  return 0;
}
