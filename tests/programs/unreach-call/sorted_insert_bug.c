// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the insertion comparison is reversed (line 20), which builds a descending list, so the ascending check calls reach_error whenever two inserted values differ.
#include <stdlib.h>

extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

struct node {
  int val;
  struct node *next;
};

void insert_sorted(struct node **head, int v) {
  struct node *n = malloc(sizeof(struct node));
  if (!n)
    abort();
  n->val = v;
  struct node **pp = head;
  while (*pp != NULL && (*pp)->val > v) /* BUG: reversed comparison */
    pp = &(*pp)->next;
  n->next = *pp;
  *pp = n;
}

int main(void) {
  struct node *list = NULL;
  struct node *p;
  int i;

  for (i = 0; i < 3; i++)
    insert_sorted(&list, __VERIFIER_nondet_int());

  for (p = list; p->next != NULL; p = p->next)
    if (p->val > p->next->val)
      reach_error();

  while (list != NULL) {
    p = list->next;
    free(list);
    list = p;
  }
  return 0;
}
