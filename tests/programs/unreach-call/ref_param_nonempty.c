// check: unreach-call
// expect: TRUE
// Why: a list built by `add(&head)` through a reference parameter holds at least one cell, which the check after the loop relies on.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct item {
  struct item *next;
};

void add(struct item **head) {
  struct item *it = malloc(sizeof(struct item));
  if (!it)
    abort();
  it->next = *head;
  *head = it;
}

int main(void) {
  struct item *head = NULL;
  do
    add(&head);
  while (__VERIFIER_nondet_int());
  if (head == NULL)
    reach_error();
  while (head) {
    struct item *n = head->next;
    free(head);
    head = n;
  }
  return 0;
}
