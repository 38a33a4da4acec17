// check: unreach-call
// data-model: LP64
// expect: TRUE
// Why: every cell of an unbounded list is zeroed with memset after malloc (line 17), so the check at line 18 that its link is NULL and its counter 0 never fails; its counter is set only after the check.
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
    if (n->next != NULL || n->count != 0) reach_error();
    n->count = 1;
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
