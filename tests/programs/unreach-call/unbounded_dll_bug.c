// check: unreach-call
// expect: FALSE(unreach-call)
// Why: each new node is linked back to the head instead of the tail (line 24), which breaks p->next->prev == p once the list has 3 nodes, so reach_error is reachable after 3 loop iterations.
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
    n->prev = head; /* BUG: should be tail; wrong from the third node on */
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
