// check: valid-memcleanup
// expect: UNKNOWN
// expect-reason: bound
// Why: pushes an unbounded nondeterministic number of nodes onto a global list and frees all of them before returning (free loop on line 30); correct, but not provable by bounded exploration.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  struct node *next;
};

struct node *g_list = NULL;

static void push(int v) {
  struct node *n = malloc(sizeof(struct node));
  if (!n)
    abort();
  n->v = v;
  n->next = g_list;
  g_list = n;
}

int main(void) {
  while (__VERIFIER_nondet_int())
    push(__VERIFIER_nondet_int());

  struct node *p = g_list;
  while (p != NULL) { /* OK: frees every node */
    struct node *n = p->next;
    free(p);
    p = n;
  }
  g_list = NULL;
  return 0;
}
