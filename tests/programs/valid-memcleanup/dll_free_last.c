// check: valid-memcleanup
// expect: TRUE
// Why: builds a doubly linked list of nondeterministic length 1..4 with calloc (next stays zero), stopping early if calloc fails, and frees it from the head until p becomes NULL (line 35), so no node is left on any path.
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
  while (p != NULL) { /* OK */
    DNode *next = p->next;
    free(p);
    p = next;
  }
  return 0;
}
