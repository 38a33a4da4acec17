// check: valid-memsafety
// expect: TRUE
// Why: builds a binary search tree from four nondeterministic keys and frees it recursively, children before the parent (line 30).
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct tree {
  int key;
  struct tree *left;
  struct tree *right;
};

static void insert(struct tree **t, int key) {
  while (*t != NULL)
    t = key < (*t)->key ? &(*t)->left : &(*t)->right;
  *t = malloc(sizeof(struct tree));
  if (*t == NULL)
    abort();
  (*t)->key = key;
  (*t)->left = NULL;
  (*t)->right = NULL;
}

static void destroy(struct tree *t) {
  if (t == NULL)
    return;
  destroy(t->left);
  destroy(t->right);
  free(t); /* OK: children are released first */
}

int main(void) {
  struct tree *root = NULL;
  int i;
  for (i = 0; i < 4; i++)
    insert(&root, __VERIFIER_nondet_int());
  destroy(root);
  return 0;
}
