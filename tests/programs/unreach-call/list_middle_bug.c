// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the slow/fast loop condition looks one node too far ahead (line 17), which returns node 0 instead of node 1 only for a list of length exactly 3, so the assert fails for n == 3.
#include <assert.h>
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

struct node {
  int idx;
  struct node *next;
};

static struct node *middle(struct node *head) {
  struct node *slow = head, *fast = head;
  while (fast->next != NULL && fast->next->next != NULL && fast->next->next->next != NULL) { /* BUG */
    slow = slow->next;
    fast = fast->next->next;
  }
  return slow;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 1 && n <= 4);

  struct node *head = NULL;
  int i;
  for (i = n - 1; i >= 0; i--) {
    struct node *nd = malloc(sizeof *nd);
    if (!nd)
      abort();
    nd->idx = i;
    nd->next = head;
    head = nd;
  }

  assert(middle(head)->idx == (n - 1) / 2);

  while (head != NULL) {
    struct node *t = head->next;
    free(head);
    head = t;
  }
  return 0;
}
