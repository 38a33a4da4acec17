// check: valid-memsafety
// expect: TRUE
// Why: pushes 3 nodes on a global stack, pops one with free (line 26) and returns from main with the rest still reachable from the global g_top, which is not a memtrack violation.
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
  free(top); /* OK: the popped node is released */
  return v;
}

int main(void) {
  int i;
  for (i = 0; i < 3; i++)
    push(i);
  int v = pop();
  return v == 2 ? 0 : 1; /* two nodes remain reachable from g_top */
}
