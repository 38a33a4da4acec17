// check: unreach-call
// expect: TRUE
// Why: copies a heap struct with a nested struct and a fixed-size array using *p = *q (line 31) before modifying q, then checks through p->, (*p). and a local struct copy that p kept the old values.
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

  *p = *q; /* OK: copy before q is modified */
  q->origin.x = 10;
  q->sides[1] = 40;
  (*q).id = 70;

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
