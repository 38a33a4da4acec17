/* Input of tests/classify.rs: a binary tree grown by adding children at nondeterministically
 * chosen free places, then freed recursively. Expected: tree[l=left, r=right] enabled; dll and
 * csll not. */
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned int);
extern void free(void *);

struct tnode {
  struct tnode *left;
  struct tnode *right;
  int key;
};

struct tnode *leaf(void) {
  struct tnode *n = malloc(sizeof(struct tnode));
  if (!n) return 0;
  n->left = 0;
  n->right = 0;
  n->key = __VERIFIER_nondet_int();
  return n;
}

void destroy(struct tnode *n) {
  if (!n) return;
  destroy(n->left);
  destroy(n->right);
  free(n);
}

int main(void) {
  struct tnode *root = leaf();
  if (!root) return 1;
  while (__VERIFIER_nondet_int()) {
    struct tnode *n = root;
    while (n->left && n->right)
      n = __VERIFIER_nondet_int() ? n->left : n->right;
    if (!n->left)
      n->left = leaf();
    else
      n->right = leaf();
  }
  destroy(root);
  return 0;
}
