/* Seed 004 (Wies, Kuncak, Zee, Podelski, Rinard, "On Verifying Complex Properties using
 * Symbolic Shape Analysis", HAV 2007), Fig. 9 benchmark re-created in C.
 *
 * Fig. 9 row: Tree.add (13 predicates, none manual; paper: 31 s).
 * Operation: add(e) hangs the fresh leaf e below some node of the binary tree rooted at the
 * global root, walking down from the root along left and right (the direction is chosen
 * nondeterministically, as in the paper's MONA version, which has no integers).
 * Contract (contracts/tree_add.shape): left and right form a tree (backbone t), root has no
 * parent, and the content (the nodes t-reachable from root) becomes old content plus e,
 * stated with two ghosts: any old member stays, any other node stays out.
 * Expected: TRUE (unreach-call, valid-memsafety)
 */
extern int __VERIFIER_nondet_int(void);
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
  while (__VERIFIER_nondet_int()) {
    Node t = malloc(sizeof(struct node));
    if (t == NULL)
      abort();
    t->left = NULL;
    t->right = NULL;
    t->data = __VERIFIER_nondet_int();
    add(t);
  }
  /* Take the tree apart one leaf at a time. */
  while (root != NULL) {
    Node p = NULL;
    Node n = root;
    while (n->left != NULL || n->right != NULL) {
      p = n;
      n = n->left != NULL ? n->left : n->right;
    }
    if (p == NULL)
      root = NULL;
    else if (p->left == n)
      p->left = NULL;
    else
      p->right = NULL;
    free(n);
  }
  return 0;
}
