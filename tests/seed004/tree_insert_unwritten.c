/* benchmarks/seed-004/tree_insert.c without `e->left = NULL`: the fresh node enters the
 * tree with garbage in its left link. The logic gives a node from malloc null children
 * but counts a link left unwritten at a cut point as outside it, so the answer is
 * UNKNOWN, never TRUE.
 */
extern int __VERIFIER_nondet_int(void);
#include <stdlib.h>

typedef struct node {
  int data;
  struct node *left;
  struct node *right;
} *Node;

Node root = NULL;

void insert(int v) {
  Node e = malloc(sizeof(struct node));
  if (e == NULL)
    abort();
  e->right = NULL;
  e->data = v;
  if (root == NULL) {
    root = e;
    return;
  }
  Node n = root;
  while (1) {
    if (__VERIFIER_nondet_int()) {
      if (n->left == NULL) {
        n->left = e;
        return;
      }
      n = n->left;
    } else {
      if (n->right == NULL) {
        n->right = e;
        return;
      }
      n = n->right;
    }
  }
}

int main(void) {
  while (__VERIFIER_nondet_int())
    insert(__VERIFIER_nondet_int());
  return 0;
}
