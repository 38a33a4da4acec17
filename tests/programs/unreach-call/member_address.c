// check: unreach-call
// expect: TRUE
// Why: the sentinel's `next` is cleared through a pointer to the member (line 19), so it is NULL when checked (line 21); an analysis that misses the write through `pp` would think it still holds the cell.
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
  if (head.next != NULL)
    reach_error();
  return 0;
}
