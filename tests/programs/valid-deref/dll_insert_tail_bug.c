// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: insert_after() sets p->next->prev without checking for a successor (line 18), a NULL dereference when the chosen position is the tail (pos == 3).
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
  p->next->prev = q; /* BUG: p->next is NULL when p is the tail */
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
