// check: unreach-call
// expect: FALSE(unreach-call)
// Why: as ref_param_nonempty.c, but the loop may add nothing, so the list may be empty at the check (line 26).
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
  while (__VERIFIER_nondet_int())
    add(&head);
  if (head == NULL)
    reach_error();
  while (head) {
    struct item *n = head->next;
    free(head);
    head = n;
  }
  return 0;
}
