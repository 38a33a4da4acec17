// check: valid-memcleanup
// expect: FALSE(valid-memcleanup)
// Why: destroy() never frees right subtrees (line 34), so memory remains allocated at exit whenever some key is >= an earlier key on its path (e.g. keys 1, 2, 3, 4).
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
  /* BUG: t->right is never freed */
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
