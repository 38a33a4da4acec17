// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the second twin of struct_copy.c gives b the tag 4 (line 21), which `*a = *b` (line 22) copies into a (line 23).
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
  b->next = NULL;
  b->tag = 4;
  *a = *b;
  if (a->next != NULL || a->tag != 3)
    reach_error();
  free(a);
  free(b);
  return 0;
}
