// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: free_all() reads p->next after free(p) (line 26), a use after free on the first node.
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
    free(p);
    next = p->next; /* BUG: use after free */
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
