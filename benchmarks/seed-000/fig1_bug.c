// Table 1 (seed 000): fig1, buggy twin of Fig. 1(a) (the running example). Checks: preservation of the dll structure (the assertion in assert_dll). Expected: FALSE(unreach-call)
// Buggy line: 42. Bug: main joins the two lists with p->succ = l2 only; the back link l2->pred = p is forgotten, so assert_dll fails at the join.
/* Seed 000, Fig. 1(a) as in fig1.c, with one bug: the two lists are joined by the forward
 * link only. With two one-node lists, l1->succ->pred is NULL instead of l1, and the
 * assertion of assert_dll (reach_error) is reached.
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h> /* fig1.c declares calloc and exit itself, with ILP32 types */

typedef struct node {
  int data;
  struct node *succ, *pred;
} *List;

List alloc_list(void) {
  List r = (List) calloc(1, sizeof(struct node));
  List p = r;
  if (r == 0) exit(1);
  while (__VERIFIER_nondet_int()) {
    List t = (List) calloc(1, sizeof(struct node));
    if (t == 0) exit(1);
    p->succ = t; t->pred = p;
    p = p->succ;
  }
  return r;
}

void assert_dll(List p) {
  while ((p != 0) && (p->succ != 0)) {
    if (!(p->succ->pred == p)) reach_error();
    p = p->succ;
  }
}

int main(void) {
  List l1 = alloc_list();
  List l2 = alloc_list();

  List p = l1;
  while (p->succ != 0) p = p->succ;
  p->succ = l2; /* BUG: l2->pred = p is forgotten */

  assert_dll(l1);
  return 0;
}
