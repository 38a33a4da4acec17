// check: unreach-call
// expect: TRUE
// Why: `*a = *b` (line 22) copies both members of a list cell, so afterwards a->next is b's NULL and a->tag is b's 3; the shape analysis must treat the struct copy as a copy of every member.
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
  b->tag = 3;
  *a = *b;
  if (a->next != NULL || a->tag != 3)
    reach_error();
  free(a);
  free(b);
  return 0;
}
