// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: ring_sum() returns without calling free_ring (line 44); the three nodes still point to each other, but no root reaches the cycle once ring_sum's frame is gone.
#include <stdlib.h>

struct node {
  int v;
  struct node *next;
};

void free_ring(struct node *first) {
  struct node *p = first->next;
  first->next = NULL; /* break the cycle */
  while (p != NULL) {
    struct node *n = p->next;
    free(p);
    p = n;
  }
}

static int ring_sum(void) {
  struct node *first = NULL, *last = NULL;
  int i, sum = 0;

  for (i = 1; i <= 3; i++) {
    struct node *n = malloc(sizeof *n);
    if (!n)
      abort();
    n->v = i;
    if (first == NULL)
      first = n;
    else
      last->next = n;
    last = n;
    last->next = first; /* keep it circular */
  }

  struct node *p = first;
  do {
    sum += p->v;
    p = p->next;
  } while (p != first);

  return sum; /* BUG: missing free_ring(first), the cycle is lost */
}

int main(void) {
  return ring_sum() == 6 ? 0 : 1;
}
