// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the struct copy *p = *q happens after q was modified (line 34), so p->origin.x is 10 and the first check calls reach_error.
#include <stdlib.h>

extern void reach_error(void);

struct point {
  int x, y;
};

struct shape {
  struct point origin;
  int sides[3];
  int id;
};

int main(void) {
  struct shape *q = malloc(sizeof(struct shape));
  struct shape *p = malloc(sizeof(struct shape));
  if (q == NULL || p == NULL)
    abort();

  q->origin.x = 1;
  q->origin.y = 2;
  q->sides[0] = 3;
  q->sides[1] = 4;
  q->sides[2] = 5;
  (*q).id = 7;

  q->origin.x = 10;
  q->sides[1] = 40;
  (*q).id = 70;
  *p = *q; /* BUG: copies the modified values */

  if (p->origin.x != 1 || (*p).origin.y != 2 || p->sides[1] != 4 || p->id != 7)
    reach_error();

  struct point local = p->origin;
  local.y += 5;
  if (p->origin.y != 2 || local.y != 7 || q->sides[2] != 5)
    reach_error();

  free(p);
  free(q);
  return 0;
}
