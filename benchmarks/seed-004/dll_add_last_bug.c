/* Seed 004 (Wies, Kuncak, Zee, Podelski, Rinard, "On Verifying Complex Properties using
 * Symbolic Shape Analysis", HAV 2007), Fig. 9 benchmark re-created in C.
 *
 * Buggy twin of dll_add_last.c: the new node's prev points to the head.
 * Operation: add_last(n) appends the fresh node n to the doubly-linked list rooted at the
 * global first, walking to the last node in one loop.
 * Contract (contracts/dll_add_last.shape): prev stays the inverse of next, first has no
 * predecessor, and the content (the nodes next-reachable from first) becomes old content
 * plus n, stated with two ghosts: any old member stays, any other node stays out.
 * Expected: FALSE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct node {
  int data;
  struct node *next;
  struct node *prev;
} *Node;

Node first = NULL;

void add_last(Node n) {
  if (first == NULL) {
    n->next = NULL;
    n->prev = NULL;
    first = n;
    return;
  }
  Node p = first;
  while (p->next != NULL)
    p = p->next;
  n->next = NULL;
  n->prev = first; /* BUG: the back pointer names the head, not the last node */
  p->next = n;
}

int main(void) {
  while (__VERIFIER_nondet_int()) {
    Node t = malloc(sizeof(struct node));
    if (t == NULL)
      abort();
    t->data = __VERIFIER_nondet_int();
    add_last(t);
  }
  /* prev is the inverse of next */
  for (Node p = first; p != NULL; p = p->next) {
    if (p->next != NULL && p->next->prev != p) {
      reach_error();
      abort();
    }
  }
  while (first != NULL) {
    Node t = first;
    first = first->next;
    free(t);
  }
  return 0;
}
