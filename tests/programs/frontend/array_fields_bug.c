// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the read follows prev three times from the last node (line 34), but nodes[0]->prev is NULL, so ->vals[1] dereferences NULL.
#include <stdlib.h>

struct node {
  int vals[4];
  struct node *next;
  struct node *prev;
};

int main(void) {
  struct node *nodes[3];
  int i, j;

  for (i = 0; i < 3; i++) {
    nodes[i] = malloc(sizeof(struct node));
    if (nodes[i] == NULL)
      abort();
    nodes[i]->next = nodes[i]->prev = NULL;
    for (j = 0; j < 4; j++)
      nodes[i]->vals[j] = i * 4 + j;
  }

  nodes[0]->next = nodes[1];
  nodes[0]->next->prev = nodes[0];
  nodes[1]->next = nodes[2];
  (*nodes[1]).next->prev = nodes[1];

  int *cell = &nodes[2]->vals[3];
  *cell = 99;

  int total = nodes[0]->next->next->vals[3];
  total += nodes[2]->prev->prev->prev->vals[1]; /* BUG: nodes[0]->prev is NULL */

  for (i = 2; i >= 0; i--)
    free(nodes[i]);
  return total == 100 ? 0 : 1;
}
