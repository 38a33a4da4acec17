// check: valid-memsafety
// expect: TRUE
// Why: make_node() hands a heap node back through an out-parameter (line 14); main reads it and frees it.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int data;
  struct node *next;
};

static void make_node(struct node **out, int v) {
  struct node *n = malloc(sizeof *n); /* OK: heap storage outlives the call */
  if (!n)
    abort();
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
