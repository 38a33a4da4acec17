// check: unreach-call
// expect: TRUE
// Why: builds a 4-node singly linked list holding 0..3 (loop bound on line 18), sums it and checks the sum is 6, so reach_error is unreachable.
#include <stdlib.h>

extern void reach_error(void);

struct node {
  int data;
  struct node *next;
};

int main(void) {
  struct node *head = NULL;
  struct node *p;
  int i;

  for (i = 0; i < 4; i++) { /* OK: exactly 4 nodes */
    struct node *n = malloc(sizeof(struct node));
    if (!n)
      abort();
    n->data = i;
    n->next = head;
    head = n;
  }

  int sum = 0;
  for (p = head; p != NULL; p = p->next)
    sum += p->data;
  if (sum != 6)
    reach_error();

  while (head != NULL) {
    p = head->next;
    free(head);
    head = p;
  }
  return 0;
}
