// check: valid-memsafety
// expect: TRUE
// Why: pushes 3 nodes through a pointer to the head and frees the list, saving the next link and reading each node's data before freeing it (line 27).
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int data;
  struct node *next;
};

void push(struct node **head, int v) {
  struct node *n = malloc(sizeof(struct node));
  if (n == NULL)
    abort();
  n->data = v;
  n->next = *head;
  *head = n;
}

int free_all(struct node *p) {
  struct node *next;
  int positive = 0;
  while (p != NULL) {
    next = p->next;
    positive += p->data > 0; /* OK: read before the node is freed */
    free(p);
    p = next;
  }
  return positive;
}

int main(void) {
  struct node *list = NULL;
  int i;
  for (i = 0; i < 3; i++)
    push(&list, __VERIFIER_nondet_int());
  return free_all(list) == 3;
}
