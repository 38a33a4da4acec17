// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: pop() unlinks the top node but does not free it (line 26), so the node is lost when pop returns, although the rest stays reachable from g_top.
#include <stdlib.h>

struct node {
  int v;
  struct node *next;
};

struct node *g_top = NULL;

static void push(int v) {
  struct node *n = malloc(sizeof(struct node));
  if (n == NULL)
    abort();
  n->v = v;
  n->next = g_top;
  g_top = n;
}

static int pop(void) {
  struct node *top = g_top;
  int v = top->v;
  g_top = top->next;
  /* BUG: top is unlinked but not freed; it is lost when pop returns */
  return v;
}

int main(void) {
  int i;
  for (i = 0; i < 3; i++)
    push(i);
  int v = pop();
  return v == 2 ? 0 : 1; /* two nodes remain reachable from g_top */
}
