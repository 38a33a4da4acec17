// check: valid-memcleanup
// expect: TRUE
// Why: builds a binary search tree from up to 4 nondeterministic keys (stopping if malloc fails) with a recursive insert and frees it recursively, both subtrees before each node (line 28).
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct tree {
  int key;
  struct tree *left;
  struct tree *right;
};

static struct tree *insert(struct tree *t, struct tree *n) {
  if (t == NULL)
    return n;
  if (n->key < t->key)
    t->left = insert(t->left, n);
  else
    t->right = insert(t->right, n);
  return t;
}

static void destroy(struct tree *t) {
  if (t == NULL)
    return;
  destroy(t->left);
  destroy(t->right); /* OK */
  free(t);
}

int main(void) {
  struct tree *root = NULL;
  int i;
  for (i = 0; i < 4; i++) {
    struct tree *n = malloc(sizeof(struct tree));
    if (n == NULL)
      break; /* out of memory: the tree built so far is destroyed below */
    n->key = __VERIFIER_nondet_int();
    n->left = NULL;
    n->right = NULL;
    root = insert(root, n);
  }
  destroy(root);
  return 0;
}
