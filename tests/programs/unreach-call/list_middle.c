// check: unreach-call
// expect: TRUE
// Why: builds a list of nondeterministic length 1..4 and finds its middle with slow/fast pointers (line 17); the assert that the middle has index (n-1)/2 holds for every length.
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
  while (fast->next != NULL && fast->next->next != NULL) { /* OK */
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
