// check: valid-memsafety
// expect: TRUE
// Why: grows a binary tree of unbounded nondeterministic size (a new leaf under a node reached by a nondeterministic descent), then frees it leaf by leaf, unlinking each leaf from its parent first (lines 41-45); only the lazy shape analysis can prove it, with sharing and acyclicity of the tree.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct tnode {
  struct tnode *left;
  struct tnode *right;
};

static struct tnode *leaf(void) {
  struct tnode *t = malloc(sizeof(struct tnode));
  if (!t)
    abort();
  t->left = NULL;
  t->right = NULL;
  return t;
}

int main(void) {
  struct tnode *root = leaf(), *n, *pred;
  while (__VERIFIER_nondet_int()) {
    n = root;
    while (n->left && n->right)
      n = __VERIFIER_nondet_int() ? n->left : n->right;
    if (!n->left && __VERIFIER_nondet_int())
      n->left = leaf();
    else if (!n->right)
      n->right = leaf();
  }
  while (root) {
    pred = NULL;
    n = root;
    while (n->left || n->right) {
      pred = n;
      n = n->left ? n->left : n->right;
    }
    if (!pred)
      root = NULL;
    else if (n == pred->left)
      pred->left = NULL;
    else
      pred->right = NULL;
    free(n);
  }
  return 0;
}
