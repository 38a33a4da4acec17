// check: valid-memcleanup
// expect: FALSE(valid-memcleanup)
// Why: the free loop stops when p->next is NULL (line 35), so the last node of the list is still allocated when main returns.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

typedef struct dnode {
  int val;
  struct dnode *next;
  struct dnode *prev;
} DNode;

int main(void) {
  DNode *head = NULL, *tail = NULL;
  int i;
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 1 && n <= 4);

  for (i = 0; i < n; i++) {
    DNode *d = calloc(1, sizeof(DNode));
    if (d == NULL)
      break; /* out of memory: the nodes allocated so far are freed below */
    d->val = i;
    d->prev = tail;
    if (tail != NULL)
      tail->next = d;
    else
      head = d;
    tail = d;
  }

  DNode *p = head;
  while (p != NULL && p->next != NULL) { /* BUG: the last node is never freed */
    DNode *next = p->next;
    free(p);
    p = next;
  }
  return 0;
}
