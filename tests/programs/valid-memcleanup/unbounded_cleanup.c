// check: valid-memcleanup
// expect: TRUE
// Why: pushes an unbounded nondeterministic number of nodes onto a global list (stopping early if malloc fails) and frees all of them before returning (free loop on line 32); correct, beyond bounded exploration, proved by the shape analysis (every node freed when main returns).
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  struct node *next;
};

struct node *g_list = NULL;

static int push(int v) {
  struct node *n = malloc(sizeof(struct node));
  if (!n)
    return 0;
  n->v = v;
  n->next = g_list;
  g_list = n;
  return 1;
}

int main(void) {
  while (__VERIFIER_nondet_int())
    if (!push(__VERIFIER_nondet_int()))
      break; /* out of memory: the nodes pushed so far are freed below */

  struct node *p = g_list;
  while (p != NULL) { /* OK: frees every node */
    struct node *n = p->next;
    free(p);
    p = n;
  }
  g_list = NULL;
  return 0;
}
