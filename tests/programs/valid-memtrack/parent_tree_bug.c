// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: the tear-down descends through left children only, so the cell it frees may still have a right subtree, which is lost (line 53; the run reports it when main returns).
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void *malloc(unsigned long);
extern void free(void *);

struct tree {
  struct tree *left, *right, *parent;
  int key;
};

static struct tree *insert(struct tree *root, struct tree *n) {
  n->left = 0;
  n->right = 0;
  n->parent = 0;
  if (!root)
    return n;
  struct tree *p = root;
  for (;;) {
    if (n->key < p->key) {
      if (!p->left) { p->left = n; break; }
      p = p->left;
    } else {
      if (!p->right) { p->right = n; break; }
      p = p->right;
    }
  }
  n->parent = p;
  return root;
}

int main(void) {
  struct tree *root = 0;
  while (__VERIFIER_nondet_int()) {
    struct tree *n = malloc(sizeof(struct tree));
    if (!n)
      abort();
    n->key = __VERIFIER_nondet_int();
    root = insert(root, n);
  }
  while (root) {
    struct tree *p = root;
    while (p->left) /* BUG: a right subtree is not descended into */
      p = p->left;
    if (p == root)
      root = 0;
    else if (p->parent->left == p)
      p->parent->left = 0;
    else
      p->parent->right = 0;
    free(p);
  }
  return 0;
}
