// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: insertion sets the parent of a left child only, so a right leaf has no parent and unlinking it reads through NULL (line 50).
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
  if (n == p->left) /* BUG: a right child gets no parent */
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
    while (p->left || p->right)
      p = p->left ? p->left : p->right;
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
