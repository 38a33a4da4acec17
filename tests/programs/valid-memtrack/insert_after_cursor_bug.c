// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: as insert_after_cursor.c, but the new cell is linked in without taking over the rest of the list, which is lost when the cursor was not at the end (line 23).
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
  tmp->next = NULL;
  x->next = tmp;
  while (head) {
    x = head->next;
    free(head);
    head = x;
  }
  return 0;
}
