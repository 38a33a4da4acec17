// check: valid-memcleanup
// expect: FALSE(valid-memcleanup)
// Why: the free loop stops before the last node (line 31), so with one or more pushed nodes a block is still allocated when main returns.
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
  while (p != NULL && p->next != NULL) { /* BUG: the last node is never freed */
    struct node *n = p->next;
    free(p);
    p = n;
  }
  g_list = NULL;
  return 0;
}
