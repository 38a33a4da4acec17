/* Seed 002 (Malik, Hruska, Schrammel, Vojnar: "Template-Based Verification of
 * Heap-Manipulating Programs", FMCAD 2018), Listing 1, in SV-COMP style.
 *
 * Models: a singly-linked list of unbounded length whose nodes hold values in [10,20]; the
 * list is then walked forever, and each node's value is either incremented (below 20) or
 * halved (at 20), so it stays in [10,20]. The paper's designated initialisers are written
 * field by field.
 * Invariant: ao.val in [10,20] for every abstract object, at both loop heads.
 *
 * Table II row: Running Example.
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
  Node *p, *list = malloc(sizeof(Node));
  if (list == NULL) return 0;
  Node *tail = list;
  list->next = NULL;
  list->val = 10;
  while (__VERIFIER_nondet_int()) {
    int x = __VERIFIER_nondet_int();
    if (x < 10 || x > 20) continue;
    p = malloc(sizeof(Node));
    if (p == NULL) return 0;
    p->next = NULL;
    p->val = x;
    tail->next = p;
    tail = p;
  }
  while (1) {
    for (p = list; p != NULL; p = p->next) {
      if (!(p->val <= 20 && p->val >= 10)) reach_error();
      if (p->val < 20) p->val++;
      else p->val /= 2;
    }
  }
  return 0;
}
