// check: valid-memsafety
// expect: TRUE
// Why: ring_sum() builds a 3-node circular list, sums it with a do-while loop and frees it by first breaking the cycle (line 44).
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

  free_ring(first); /* OK */
  return sum;
}

int main(void) {
  return ring_sum() == 6 ? 0 : 1;
}
