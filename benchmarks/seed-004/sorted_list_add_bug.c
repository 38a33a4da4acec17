/* Seed 004 (Wies, Kuncak, Zee, Podelski, Rinard, "On Verifying Complex Properties using
 * Symbolic Shape Analysis", HAV 2007), Fig. 9 benchmark re-created in C: the running
 * example SortedList.insert of Fig. 2.
 *
 * Buggy twin of sorted_list_add.c: the loop skips the larger nodes instead of the smaller.
 * Operation: insert(n) puts the fresh node n into the list rooted at the global first,
 * sorted by non-decreasing data, before the first node whose data is not smaller than n's.
 * Contract (contracts/sorted_list_add.shape): the list stays sorted and acyclic, and the
 * content becomes old content plus n (two ghosts: an old member stays, another node stays
 * out).
 * Expected: FALSE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct node {
  int data;
  struct node *next;
} *Node;

Node first = NULL;

void insert(Node n) {
  Node prev = NULL;
  Node curr = first;
  while (curr != NULL && curr->data > n->data) { /* BUG: the comparison is reversed */
    prev = curr;
    curr = curr->next;
  }
  n->next = curr;
  if (prev != NULL)
    prev->next = n;
  else
    first = n;
}

int main(void) {
  while (__VERIFIER_nondet_int()) {
    Node t = malloc(sizeof(struct node));
    if (t == NULL)
      abort();
    t->data = __VERIFIER_nondet_int();
    t->next = NULL;
    insert(t);
  }
  /* the list is sorted */
  for (Node p = first; p != NULL && p->next != NULL; p = p->next) {
    if (p->data > p->next->data) {
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
