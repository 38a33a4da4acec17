// check: valid-memsafety
// expect: TRUE
// Why: four nodes are carved out of one malloc'ed array and linked; after dropping the first node from the list the pool is released with one free of the block start (line 30).
#include <stdlib.h>

struct node {
  int v;
  struct node *next;
};

int main(void) {
  struct node *pool = malloc(4 * sizeof(struct node));
  if (!pool)
    abort();

  int i;
  for (i = 0; i < 4; i++) {
    pool[i].v = i;
    pool[i].next = (i < 3) ? &pool[i + 1] : NULL;
  }

  struct node *head = pool;
  head = head->next; /* the list now starts at pool + 1 */

  int sum = 0;
  struct node *p;
  for (p = head; p != NULL; p = p->next)
    sum += p->v;

  free(pool); /* OK: pool is the start of the block */
  return sum == 6 ? 0 : 1;
}
