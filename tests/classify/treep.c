/* Input of tests/classify.rs: a binary tree whose nodes point to their parent, grown by adding
 * children at nondeterministically chosen free places. Expected: treep[l=left, r=right,
 * p=parent] enabled and finest (tree[l=left, r=right] enabled too, coarser). */
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned int);
extern void free(void *);

struct tnode {
  int key;
  struct tnode *left, *right, *parent;
};

struct tnode *child(struct tnode *parent) {
  struct tnode *n = malloc(sizeof(struct tnode));
  if (!n) return 0;
  n->left = 0;
  n->right = 0;
  n->parent = parent;
  n->key = __VERIFIER_nondet_int();
  return n;
}

int main(void) {
  struct tnode *root = child(0);
  if (!root) return 1;
  while (__VERIFIER_nondet_int()) {
    struct tnode *n = root;
    while (n->left && n->right)
      n = __VERIFIER_nondet_int() ? n->left : n->right;
    if (!n->left)
      n->left = child(n);
    else
      n->right = child(n);
  }
  /* Free bottom-up through the parent pointers. */
  struct tnode *n = root;
  while (n) {
    if (n->left) {
      n = n->left;
    } else if (n->right) {
      n = n->right;
    } else {
      struct tnode *p = n->parent;
      if (p) {
        if (p->left == n) p->left = 0;
        else p->right = 0;
      }
      free(n);
      n = p;
    }
  }
  return 0;
}
