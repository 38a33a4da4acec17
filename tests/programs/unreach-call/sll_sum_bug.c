// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the build loop is off by one (line 18) and creates 5 nodes holding 0..4, so the sum is 10 and reach_error is called deterministically.
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

  for (i = 0; i <= 4; i++) { /* BUG: off by one, builds 5 nodes */
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
