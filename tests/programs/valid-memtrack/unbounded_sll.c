// check: valid-memsafety
// expect: TRUE
// Why: builds a list of unbounded nondeterministic length (loop on line 18) and frees it correctly; bounded exploration cannot cover every length, the lazy shape analysis proves every dereference, free and the reachability of every cell (valid-memtrack).
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int data;
  struct node *next;
};

int main(void) {
  struct node *head = NULL;
  struct node *p;

  while (__VERIFIER_nondet_int()) { /* OK: unbounded, every iteration is safe */
    p = malloc(sizeof *p);
    if (!p)
      abort();
    p->data = __VERIFIER_nondet_int();
    p->next = head;
    head = p;
  }

  int found = 0;
  while (head != NULL) {
    p = head->next;
    found |= head->data == 42;
    free(head);
    head = p;
  }
  return found;
}
