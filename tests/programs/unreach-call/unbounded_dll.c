// check: unreach-call
// expect: TRUE
// Why: appends an unbounded nondeterministic number of nodes to a doubly linked list, linking each back to the old tail (line 25), and checks p->next->prev == p; the check always holds, beyond bounded exploration: the shape analysis proves it (freeing from the head leaves the next node's prev dangling, which is no error).
#include <stdlib.h>

extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

typedef struct dnode {
  int v;
  struct dnode *next;
  struct dnode *prev;
} DNode;

int main(void) {
  DNode *head = NULL, *tail = NULL, *p;

  while (__VERIFIER_nondet_int()) {
    DNode *n = malloc(sizeof(DNode));
    if (!n)
      abort();
    n->v = 0;
    n->next = NULL;
    n->prev = tail; /* OK: link back to the current tail */
    if (tail != NULL)
      tail->next = n;
    else
      head = n;
    tail = n;
  }

  for (p = head; p != NULL; p = p->next)
    if (p->next != NULL && p->next->prev != p)
      reach_error();

  while (head != NULL) {
    p = head->next;
    free(head);
    head = p;
  }
  return 0;
}
