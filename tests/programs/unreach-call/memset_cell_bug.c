// check: unreach-call
// data-model: LP64
// expect: FALSE(unreach-call)
// Why: as memset_cell.c, but the counter is set before the check (line 18), so the first cell fails it.
#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct node { struct node *next; int count; };

int main(void) {
  struct node *head = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof(struct node));
    if (!n) abort();
    memset(n, 0, sizeof(struct node));
    n->count = 1;
    if (n->next != NULL || n->count != 0) reach_error();
    n->next = head;
    head = n;
  }
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
