// check: unreach-call
// expect: TRUE
// Why: inserts three nondeterministic values into a sorted list through a pointer to the head pointer (comparison on line 20), so the sortedness check can only fail on infeasible paths.
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
  while (*pp != NULL && (*pp)->val < v) /* OK: skip the smaller values */
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
