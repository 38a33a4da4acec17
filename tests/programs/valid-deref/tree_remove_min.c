// check: valid-memsafety
// expect: TRUE
// Why: builds a binary search tree from four nondeterministic keys, removes its minimum through a pointer to the link, reading the key before the node is freed (line 30), and frees the rest recursively.
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
  int key = min->key; /* OK: read before min is freed */
  free(min);
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
