/* Seed 004 (Wies, Kuncak, Zee, Podelski, Rinard, HAV 2007), Tree.add with the node made
 * inside: not a Fig. 9 row, but the form C programs take. insert(v) takes a node from
 * malloc, writes its links and data, and hangs it below some node of the binary tree rooted
 * at the global root (the direction chosen nondeterministically, as in tree_add.c).
 * Contract (contracts/tree_insert.shape): left and right form a tree (backbone t) below a
 * parentless root, every node below an allocated node is allocated, and any node of the
 * tree before the call (ghost a) is in it after.
 * Bug: when the left child is taken, the new node may replace it, and the subtree below
 * (ghost a perhaps) is lost. Expected: FALSE (contract)
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
  e->left = NULL;
  e->right = NULL;
  e->data = v;
  if (root == NULL) {
    root = e;
    return;
  }
  Node n = root;
  while (1) {
    if (__VERIFIER_nondet_int()) {
      if (n->left == NULL || __VERIFIER_nondet_int()) {
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
