// check: valid-memsafety
// expect: TRUE
// Why: links three heap nodes held in a local pointer array into a doubly linked chain with nested accesses such as nodes[0]->next->prev and (*nodes[1]).next->prev, writes through a pointer to an array field and reads two links back from the last node (line 34) before freeing all three.
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
  total += nodes[2]->prev->prev->vals[1]; /* OK: nodes[2]->prev->prev == nodes[0] */

  for (i = 2; i >= 0; i--)
    free(nodes[i]);
  return total == 100 ? 0 : 1;
}
