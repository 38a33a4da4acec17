// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: remove_min() reads min->key after free(min) (line 31), a use after free; min's right subtree was re-linked first, so nothing is lost before the bad read.
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

static int remove_min(struct tree **t) {
  while ((*t)->left != NULL)
    t = &(*t)->left;
  struct tree *min = *t;
  *t = min->right; /* the right subtree takes min's place */
  free(min);
  int key = min->key; /* BUG: min was already freed */
  return key;
}

static void destroy(struct tree *t) {
  if (t == NULL)
    return;
  destroy(t->left);
  destroy(t->right);
  free(t);
}

int main(void) {
  struct tree *root = NULL;
  int i;
  for (i = 0; i < 4; i++)
    insert(&root, __VERIFIER_nondet_int());
  int m = remove_min(&root);
  destroy(root);
  return m > 0;
}
