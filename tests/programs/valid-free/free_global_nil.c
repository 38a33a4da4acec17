// check: valid-memsafety
// expect: TRUE
// Why: the list is terminated by the address of a global sentinel nil instead of NULL, and the free loop stops at &nil (line 34), so only heap nodes are freed.
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
  while (p != &nil) { /* OK: stop at the global sentinel */
    struct node *next = p->next;
    free(p);
    p = next;
  }
  return count == 3 ? 0 : 1;
}
