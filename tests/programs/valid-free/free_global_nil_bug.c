// check: valid-memsafety
// expect: FALSE(valid-free)
// Why: the free loop runs until NULL instead of &nil (line 34), so after the three heap nodes it calls free(&nil) on a global.
#include <stdlib.h>

struct node {
  int v;
  struct node *next;
};

struct node nil = {0, NULL};

static void push(struct node **head, int v) {
  struct node *n = malloc(sizeof(struct node));
  if (!n)
    abort();
  n->v = v;
  n->next = *head;
  *head = n;
}

int main(void) {
  struct node *list = &nil;
  struct node *p;
  int i, count = 0;

  for (i = 0; i < 3; i++)
    push(&list, i);

  for (p = list; p != &nil; p = p->next)
    count++;

  p = list;
  while (p != NULL) { /* BUG: also frees &nil, a global */
    struct node *next = p->next;
    free(p);
    p = next;
  }
  return count == 3 ? 0 : 1;
}
