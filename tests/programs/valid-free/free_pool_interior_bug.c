// check: valid-memsafety
// expect: FALSE(valid-free)
// Why: the pool is released through head (line 30), which equals pool + 1 and points into the middle of the block.
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

  free(head); /* BUG: head == pool + 1, an interior pointer */
  return sum == 6 ? 0 : 1;
}
