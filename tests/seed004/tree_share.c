/* A store along a tree backbone that gives a node a second parent: e hangs below the
 * leftmost node on both sides when that node has no right child. The contract
 * (benchmarks/seed-004/contracts/tree_add.shape) holds of the result, but the heap is no
 * longer a forest, which the logic cannot describe: the engine must say so (UNKNOWN), never
 * prove it. */
#include <stdlib.h>

typedef struct node {
  int data;
  struct node *left;
  struct node *right;
} *Node;

Node root = NULL;

void add(Node e) {
  if (root == NULL) {
    root = e;
    return;
  }
  Node n = root;
  while (n->left != NULL)
    n = n->left;
  n->left = e;
  if (n->right == NULL)
    n->right = e;
}

int main(void) {
  Node t = malloc(sizeof(struct node));
  if (t == NULL)
    return 0;
  t->left = NULL;
  t->right = NULL;
  add(t);
  return 0;
}
