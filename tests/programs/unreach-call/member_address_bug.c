// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the check is inverted (line 21): `next` was cleared through `pp` (line 19), so the error is reached.
#include <stdlib.h>
extern void reach_error(void);

struct cell {
  struct cell *next;
};

int main(void) {
  struct cell head;
  struct cell *x = malloc(sizeof(struct cell));
  if (!x)
    return 0;
  x->next = NULL;
  head.next = x;
  struct cell **pp = &head.next;
  *pp = NULL;
  free(x);
  if (head.next == NULL)
    reach_error();
  return 0;
}
