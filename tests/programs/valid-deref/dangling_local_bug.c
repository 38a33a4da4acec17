// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: make_node() hands back the address of its own local struct (line 15), so p->data in main dereferences a dangling pointer into a dead stack frame.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int data;
  struct node *next;
};

static void make_node(struct node **out, int v) {
  struct node local;
  struct node *n = &local; /* BUG: local dies when make_node returns */
  n->data = v;
  n->next = NULL;
  *out = n;
}

int main(void) {
  struct node *p = NULL;
  int v = __VERIFIER_nondet_int();
  make_node(&p, v);
  int r = p->data == v;
  free(p);
  return r ? 0 : 1;
}
