// check: valid-memsafety
// expect: TRUE
// Why: pushes 3 nodes through a pointer to the head and frees the list, reading each next link before freeing the node (line 25).
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

void free_all(struct node *p) {
  struct node *next;
  while (p != NULL) {
    next = p->next; /* OK: link read before the node is freed */
    free(p);
    p = next;
  }
}

int main(void) {
  struct node *list = NULL;
  int i;
  for (i = 0; i < 3; i++)
    push(&list, __VERIFIER_nondet_int());
  free_all(list);
  return 0;
}
