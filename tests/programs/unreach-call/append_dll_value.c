// check: unreach-call
// expect: TRUE
// Why: appends an unbounded number of nodes with v = 5 to a list whose nodes have two pointer fields (next and prev), linking each through the old tail (line 22); every node's v stays 5, so reach_error (line 28) is unreachable.
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
    if (!n) return 0;
    n->v = 5;
    n->next = NULL;
    if (tail != NULL) tail->next = n; else head = n;
    n->prev = tail;
    tail = n;
  }
  for (p = head; p != NULL; p = p->next)
    if (p->v != 5)
      reach_error();
  return 0;
}
