// check: valid-memcleanup
// expect: TRUE
// Why: pushes up to 3 nodes on a global stack (stopping if malloc fails) and pops (and frees) every node before main returns (line 36), so no heap memory is left at exit.
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
  while (g_top != NULL) /* OK: pop everything */
    sum += pop();
  return sum == 3 ? 0 : 1;
}
