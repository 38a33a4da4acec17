/* Seed 002 (Malik, Hruska, Schrammel, Vojnar: "Template-Based Verification of
 * Heap-Manipulating Programs", FMCAD 2018), Listing 1, in SV-COMP style, with one bug.
 *
 * Models: as running_example.c, a list of values in [10,20] walked forever, but the update
 * decrements instead of incrementing (the 2LS repository's false variant of the running
 * example does the same). The head holds 10, so after one walk it holds 9 and the
 * assertion fails on the second walk, even with a one-node list.
 *
 * Table II row: Running Example (buggy twin).
 * Expected: FALSE (unreach-call)
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
      /* BUG: decrements instead of increments; the head (10) drops to 9 after one walk */
      if (p->val < 20) p->val--;
      else p->val /= 2;
    }
  }
  return 0;
}
