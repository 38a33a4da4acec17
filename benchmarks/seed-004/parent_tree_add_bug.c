/* Seed 004 (Wies, Kuncak, Zee, Podelski, Rinard, "On Verifying Complex Properties using
 * Symbolic Shape Analysis", HAV 2007), Fig. 9 benchmark re-created in C.
 *
 * Fig. 9 row: ParentTree.add (13 predicates, none manual; paper: 33 s).
 * Operation: add(e) hangs the fresh leaf e below some node of the binary tree rooted at the
 * global root, as Tree.add does, and sets e's parent pointer to the node it hangs below.
 * Contract (contracts/parent_tree_add.shape): left and right form a tree (backbone t) below
 * a parentless root, parent is the inverse of the tree's edges (a node's parent-ancestors
 * are exactly its tree ancestors), and content (the nodes t-reachable from root) becomes
 * old content plus e, stated with two ghosts.
 * Bug: on the right branch e is hung below n but its parent pointer is left null, so e's
 * parent-ancestors are not its tree ancestors. Expected: FALSE (contract)
 */
extern int __VERIFIER_nondet_int(void);
#include <stdlib.h>

typedef struct node {
  int data;
  struct node *left;
  struct node *right;
  struct node *parent;
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
        e->parent = n;
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
    t->parent = NULL;
    t->data = __VERIFIER_nondet_int();
    add(t);
  }
  /* Take the tree apart one leaf at a time, going up through parent. */
  Node n = root;
  while (n != NULL) {
    if (n->left != NULL) {
      n = n->left;
    } else if (n->right != NULL) {
      n = n->right;
    } else {
      Node p = n->parent;
      if (p != NULL) {
        if (p->left == n)
          p->left = NULL;
        else
          p->right = NULL;
      }
      free(n);
      n = p;
    }
  }
  root = NULL;
  return 0;
}
