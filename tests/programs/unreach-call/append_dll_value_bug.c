// check: unreach-call
// expect: FALSE(unreach-call)
// Why: as append_dll_value.c, but the walk claims that no node has a successor (line 28), which fails once two nodes were appended. A template engine that loses the write through tail->next (a store into a summary object with two pointer fields) proves this wrongly.
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
    if (p->next != NULL)
      reach_error();
  return 0;
}
