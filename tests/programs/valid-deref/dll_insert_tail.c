// check: valid-memsafety
// expect: TRUE
// Why: inserts a node after a nondeterministic position 0..3 of a 4-node doubly linked list and updates p->next->prev only when p has a successor (line 18).
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

typedef struct dnode {
  int val;
  struct dnode *next;
  struct dnode *prev;
} DNode;

static void insert_after(DNode *p, DNode *q) {
  q->prev = p;
  q->next = p->next;
  if (p->next != NULL) p->next->prev = q; /* OK: the tail has no successor */
  p->next = q;
}

int main(void) {
  DNode *head = NULL, *tail = NULL;
  int i;

  for (i = 0; i < 4; i++) {
    DNode *n = malloc(sizeof(DNode));
    if (!n)
      abort();
    n->val = i;
    n->next = NULL;
    n->prev = tail;
    if (tail)
      tail->next = n;
    else
      head = n;
    tail = n;
  }

  int pos = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= pos && pos < 4);
  DNode *p = head;
  for (i = 0; i < pos; i++)
    p = p->next;

  DNode *q = malloc(sizeof(DNode));
  if (!q)
    abort();
  q->val = 100;
  insert_after(p, q);

  while (head != NULL) {
    DNode *t = head->next;
    free(head);
    head = t;
  }
  return 0;
}
