// check: valid-memcleanup
// expect: FALSE(valid-memcleanup)
// Why: the free loop stops before the last node (line 29), so with one or more pushed nodes a block is still allocated when main returns.
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
  while (p != NULL && p->next != NULL) { /* BUG: the last node is never freed */
    struct node *n = p->next;
    free(p);
    p = n;
  }
  g_list = NULL;
  return 0;
}
