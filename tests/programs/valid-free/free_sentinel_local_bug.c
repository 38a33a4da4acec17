// check: valid-memsafety
// expect: FALSE(valid-free)
// Why: free_list() is started at the stack-allocated sentinel (line 36), so its first free() is called on the address of a local variable.
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

  free_list(&sentinel); /* BUG: frees the address of a local */
  return 0;
}
