// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: destroy() frees the node first and then reads t->left (line 29), a use after free on the root.
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
  free(t);
  destroy(t->left); /* BUG: t was already freed */
  destroy(t->right);
}

int main(void) {
  struct tree *root = NULL;
  int i;
  for (i = 0; i < 4; i++)
    insert(&root, __VERIFIER_nondet_int());
  destroy(root);
  return 0;
}
