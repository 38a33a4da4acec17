/* Seed 004 (Wies, Kuncak, Zee, Podelski, Rinard, HAV 2007): procedures verified one at a
 * time. insert is tree_insert.c's; insert_pair calls it twice, and its proof uses insert's
 * contract at each call (the contract is proved first, on insert alone).
 * Contract (contracts/tree_insert_pair.shape): insert's, and the same for insert_pair.
 * Expected: TRUE (unreach-call, valid-deref, valid-free)
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

/* Verified through insert's contract, not its body (assume-guarantee). */
void insert_pair(int v, int w) {
  insert(v);
  insert(w);
}

int main(void) {
  while (__VERIFIER_nondet_int())
    insert_pair(__VERIFIER_nondet_int(), __VERIFIER_nondet_int());
  return 0;
}
