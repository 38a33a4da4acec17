// check: valid-memcleanup
// expect: TRUE
// Why: pushes 3 nodes on a global stack and pops (and frees) every node before main returns (line 34), so no heap memory is left at exit.
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
  while (g_top != NULL) /* OK: pop everything */
    sum += pop();
  return sum == 3 ? 0 : 1;
}
