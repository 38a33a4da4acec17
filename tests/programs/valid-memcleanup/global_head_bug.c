// check: valid-memcleanup
// expect: FALSE(valid-memcleanup)
// Why: main pops only one node (line 36); when two or more pushes succeed the others stay reachable from the global g_top at exit, which is fine for memtrack but violates memcleanup.
#include <stdlib.h>

struct node {
  int v;
  struct node *next;
};

struct node *g_top = NULL;

static int push(int v) {
  struct node *n = malloc(sizeof(struct node));
  if (n == NULL)
    return 0;
  n->v = v;
  n->next = g_top;
  g_top = n;
  return 1;
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
    if (!push(i))
      break; /* out of memory: the nodes pushed so far are popped below */
  if (g_top != NULL) /* BUG: pops one node, the others are still allocated at exit */
    sum += pop();
  return sum == 3 ? 0 : 1;
}
