/* Seed 002 (Malik, Hruska, Schrammel, Vojnar, FMCAD 2018), Table II benchmark re-created.
 *
 * Models: the split (partition) step of quick-sort on a singly-linked list. A list of
 * unbounded length with arbitrary values is built; the pivot is the value of its first
 * node. The split moves every node (the first one included) to the list lo if its value is
 * below the pivot and to the list hi otherwise. Then lo is walked asserting val < pivot
 * and hi is walked asserting val >= pivot (and both are freed).
 * Invariant: ao.val < pivot for the objects reachable from lo and ao.val >= pivot for
 * those reachable from hi (a relation between a field and a program variable).
 *
 * Table II row: Quick Sort.
 * Expected: TRUE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct node {
  int val;
  struct node *next;
} Node;

int main(void) {
  Node *list = malloc(sizeof(Node));
  if (list == NULL) return 0;
  list->val = __VERIFIER_nondet_int();
  list->next = NULL;
  Node *p;
  while (__VERIFIER_nondet_int()) {
    p = malloc(sizeof(Node));
    if (p == NULL) return 0;
    p->val = __VERIFIER_nondet_int();
    p->next = list;
    list = p;
  }

  int pivot = list->val;
  Node *lo = NULL, *hi = NULL;
  while (list != NULL) {
    p = list;
    list = list->next;
    if (p->val < pivot) {
      p->next = lo;
      lo = p;
    } else {
      p->next = hi;
      hi = p;
    }
  }

  while (lo != NULL) {
    p = lo;
    if (!(p->val < pivot)) reach_error();
    lo = p->next;
    free(p);
  }
  while (hi != NULL) {
    p = hi;
    if (!(p->val >= pivot)) reach_error();
    hi = p->next;
    free(p);
  }
  return 0;
}
