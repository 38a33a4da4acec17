// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: root->left is overwritten with NULL without freeing the subtree first (line 52), so the three nodes of the left subtree become unreachable.
#include <stdlib.h>

struct info {
  int key;
  int count;
};

struct tree {
  struct info info;
  struct tree *left;
  struct tree *right;
};

static struct tree *mk(int key, struct tree *l, struct tree *r) {
  struct tree *t = malloc(sizeof(struct tree));
  if (t == NULL)
    abort();
  t->info.key = key;
  t->info.count = 1;
  t->left = l;
  t->right = r;
  return t;
}

static void destroy(struct tree *t) {
  if (t == NULL)
    return;
  destroy(t->left);
  destroy(t->right);
  free(t);
}

static int size(struct tree *t) {
  return t == NULL ? 0 : t->info.count + size(t->left) + size(t->right);
}

static struct tree *build(void) {
  struct tree *a = mk(1, NULL, NULL);
  struct tree *b = mk(4, NULL, NULL);
  struct tree *l = mk(3, a, b);
  struct tree *r = mk(8, NULL, NULL);
  return mk(5, l, r);
}

int main(void) {
  struct tree *root = build();

  /* prune the left subtree */
  root->left = NULL; /* BUG: the left subtree (3 nodes) is lost */

  int n = size(root);
  destroy(root);
  return n == 2 ? 0 : 1;
}
