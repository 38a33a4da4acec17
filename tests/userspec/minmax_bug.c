/* minmax_bug.c: the buggy twin of minmax.c, benchmarks/seed-002/min_max.c without the final frees (the template engine does
 * not track which objects of a summary were freed, so a program freeing list nodes stays
 * UNKNOWN there); proved with the relational rows of minmax.shape:
 *   shapecheck verify tests/userspec/minmax.c --spec tests/userspec/minmax.shape --with-library
 */
/* Seed 002 (Malik, Hruska, Schrammel, Vojnar, FMCAD 2018), Table II benchmark re-created,
 * with one bug.
 *
 * Models: as min_max.c, a list of measurements built together with the running minimum and
 * maximum (variables min and max, set from the first value and updated at each insertion).
 * Afterwards a walk asserts min <= val <= max for every node and frees the list. The
 * property relates a field of every node to two program variables. The bug: the maximum is
 * updated with a plain "else", as if every value not below the minimum were a new maximum;
 * the values 0, 2, 1 leave max = 1 while 2 is in the list.
 *
 * Table II row: MinMax (buggy twin).
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
  int x = __VERIFIER_nondet_int();
  Node *list = malloc(sizeof(Node));
  if (list == NULL) return 0;
  list->val = x;
  list->next = NULL;
  int min = x, max = x;
  Node *p;
  while (__VERIFIER_nondet_int()) {
    x = __VERIFIER_nondet_int();
    p = malloc(sizeof(Node));
    if (p == NULL) return 0;
    p->val = x;
    p->next = list;
    list = p;
    if (x < min) min = x;
    /* BUG: should be if (x > max) max = x; */
    else max = x;
  }
  while (list != NULL) {
    p = list;
    if (!(min <= p->val && p->val <= max)) reach_error();
    list = p->next;
  }
  return 0;
}
