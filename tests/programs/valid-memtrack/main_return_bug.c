// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: main returns without freeing the list (line 32); the list was reachable only from main's local head, so it becomes unreachable while still allocated.
#include <stdlib.h>

struct node {
  int data;
  struct node *next;
};

void free_list(struct node *p) {
  while (p != NULL) {
    struct node *n = p->next;
    free(p);
    p = n;
  }
}

int main(void) {
  struct node *head = NULL;
  int i;

  for (i = 0; i < 3; i++) {
    struct node *n = malloc(sizeof(struct node));
    if (n == NULL)
      abort();
    n->data = i;
    n->next = head;
    head = n;
  }

  return 0; /* BUG: head is the only pointer to the list, no free_list(head) */
}
