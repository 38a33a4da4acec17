// check: valid-memsafety
// expect: TRUE
// Why: a cell is spliced in after a cursor that stopped anywhere in an unbounded list (`tmp->next = x->next; x->next = tmp;`), then the list is freed; the rest of the list stays reachable through the new cell.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { struct node *next; };
int main(void) {
  struct node *head = malloc(sizeof(struct node));
  if (!head) return 0;
  head->next = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) abort();
    c->next = head;
    head = c;
  }
  struct node *x = head;
  while (x->next && __VERIFIER_nondet_int())
    x = x->next;
  struct node *tmp = malloc(sizeof(struct node));
  if (!tmp) abort();
  tmp->next = x->next;
  x->next = tmp;
  while (head) {
    x = head->next;
    free(head);
    head = x;
  }
  return 0;
}
