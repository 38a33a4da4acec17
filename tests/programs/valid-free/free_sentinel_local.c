// check: valid-memsafety
// expect: TRUE
// Why: a list hangs off a sentinel node that lives on main's stack; only the heap nodes after the sentinel are freed (line 36).
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  struct node *next;
};

static void free_list(struct node *p) {
  while (p != NULL) {
    struct node *n = p->next;
    free(p);
    p = n;
  }
}

int main(void) {
  struct node sentinel;
  int i;

  sentinel.v = 0;
  sentinel.next = NULL;
  for (i = 0; i < 3; i++) {
    struct node *n = malloc(sizeof *n);
    if (!n)
      abort();
    n->v = __VERIFIER_nondet_int();
    n->next = sentinel.next;
    sentinel.next = n;
  }

  free_list(sentinel.next); /* OK: the sentinel itself is not heap memory */
  return 0;
}
