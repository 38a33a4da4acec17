// check: valid-memcleanup
// expect: FALSE(valid-memcleanup)
// Why: main pops only one node (line 34); the other two stay reachable from the global g_top at exit, which is fine for memtrack but violates memcleanup.
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
  free(top);
  return v;
}

int main(void) {
  int i, sum = 0;
  for (i = 0; i < 3; i++)
    push(i);
  sum += pop(); /* BUG: pops one node, two are still allocated at exit */
  return sum == 3 ? 0 : 1;
}
