// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: free_all() reads p->data after free(p) (line 28), a use after free on the first node; the next link was saved, so no other block is lost first.
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
    free(p);
    positive += p->data > 0; /* BUG: use after free */
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
