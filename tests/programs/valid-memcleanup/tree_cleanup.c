// check: valid-memcleanup
// expect: TRUE
// Why: builds a binary search tree from 4 nondeterministic keys with a recursive insert and frees it recursively, both subtrees before each node (line 34).
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct tree {
  int key;
  struct tree *left;
  struct tree *right;
};

static struct tree *insert(struct tree *t, int key) {
  if (t == NULL) {
    t = malloc(sizeof(struct tree));
    if (t == NULL)
      abort();
    t->key = key;
    t->left = NULL;
    t->right = NULL;
  } else if (key < t->key) {
    t->left = insert(t->left, key);
  } else {
    t->right = insert(t->right, key);
  }
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
  for (i = 0; i < 4; i++)
    root = insert(root, __VERIFIER_nondet_int());
  destroy(root);
  return 0;
}
