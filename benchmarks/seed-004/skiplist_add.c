/* Seed 004 (Wies, Kuncak, Zee, Podelski, Rinard, "On Verifying Complex Properties using
 * Symbolic Shape Analysis", HAV 2007), Fig. 9 benchmark re-created in C.
 *
 * Fig. 9 row: Skiplist.add (20 predicates, none manual; paper: 26 s).
 * A two-level skip list: every node is on the list along next from the global root; some
 * are also on the express lane along nextSub, which only skips ahead (every nextSub path is
 * a next path: the paper's field constraint on nextSub).
 * Operation: add(e) walks the express lane to the last node before e's place, then the
 * list from there, links e in, and nondeterministically also into the express lane.
 * Contract (contracts/skiplist_add.shape): the list stays acyclic, nextSub keeps skipping
 * ahead, and the content becomes old content plus e (two ghosts).
 * Expected: TRUE (unreach-call, valid-memsafety)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct node {
  int v;
  struct node *next;
  struct node *nextSub;
} *Node;

Node root = NULL;

void add(Node e) {
  if (root == NULL) {
    root = e;
    return;
  }
  Node sprev = root;
  Node scurrent = root->nextSub;
  while (scurrent != NULL && scurrent->v < e->v) {
    sprev = scurrent;
    scurrent = scurrent->nextSub;
  }
  Node prev = sprev;
  Node current = sprev->next;
  while (current != scurrent && current->v < e->v) {
    prev = current;
    current = current->next;
  }
  e->next = current;
  prev->next = e;
  if (__VERIFIER_nondet_int()) {
    sprev->nextSub = e;
    e->nextSub = scurrent;
  }
}

int main(void) {
  while (__VERIFIER_nondet_int()) {
    Node t = malloc(sizeof(struct node));
    if (t == NULL)
      abort();
    t->v = __VERIFIER_nondet_int();
    t->next = NULL;
    t->nextSub = NULL;
    add(t);
  }
  /* every express-lane successor is further down the list */
  for (Node p = root; p != NULL; p = p->next) {
    if (p->nextSub != NULL) {
      Node q = p->next;
      while (q != NULL && q != p->nextSub)
        q = q->next;
      if (q == NULL) {
        reach_error();
        abort();
      }
    }
  }
  while (root != NULL) {
    Node t = root;
    root = root->next;
    free(t);
  }
  return 0;
}
