// Table 1 (seed 000): treep_rotate_left_right. Checks: validity of parent pointers w.r.t. left and right. Expected: TRUE
/* Client of rotate_left_right (GDSL 1.4 _gdsl_bintree_rotate_left_right), as in the paper's
 * evaluation (digest §7): it builds an arbitrary binary tree with parent pointers (alloc_tree),
 * picks any node n of it and its parent par by a nondeterministic descent from the root and, if
 * the precondition holds, rotates n and links the rotated subtree in n's place; on return it
 * checks validity of parent pointers w.r.t. left and right (each child's parent is the node above
 * it, the root's is NULL), with assert_parents.
 *
 * GDSL's rotations take the link to the node (_gdsl_bintree_t *t) and end with *t = rn; here each
 * takes the node and returns the new root of its subtree, and the relinking *t = rn moved to the
 * caller (the client, or rotate_left_right for its inner rotation), because shapecheck's shape
 * domain has no pointers into fields (no &, no pointers to pointers). The tree has an unbounded
 * nondeterministic size and shape; the checks are pointer code only (no node counter, no
 * recursion), correct on every heap, so that a shape analysis over pointer variables and fields
 * can prove them.
 */
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

/* GDSL 1.4's low-level binary tree node (_gdsl_bintree), with an int for the content. */
typedef struct tree {
  int data;
  struct tree *parent, *left, *right;
} *tree_t;

static tree_t new_node(tree_t parent) {
  tree_t t = malloc(sizeof(struct tree));
  if (!t)
    abort();
  t->data = 0;
  t->parent = parent;
  t->left = NULL;
  t->right = NULL;
  return t;
}

/* Client: an arbitrary binary tree with parent pointers, of at least one node; each new node
 * goes into an empty child slot found by a nondeterministic descent from the root. */
static tree_t alloc_tree(void) {
  tree_t root = new_node(NULL);
  while (__VERIFIER_nondet_int()) {
    tree_t p = root;
    for (;;) {
      if (__VERIFIER_nondet_int()) {
        if (p->left == NULL) {
          p->left = new_node(p);
          break;
        }
        p = p->left;
      } else {
        if (p->right == NULL) {
          p->right = new_node(p);
          break;
        }
        p = p->right;
      }
    }
  }
  return root;
}

/* Client: parent pointers agree with left and right, with pointers only: the root has no
 * parent, and along a nondeterministic downward walk from the root every child's parent is the
 * node above it. Every node of the tree is on some walk; in a tree every walk reaches NULL. */
static void assert_parents(tree_t root) {
  tree_t t = root;
  if (root != NULL && root->parent != NULL)
    reach_error();
  while (t != NULL) {
    tree_t c = __VERIFIER_nondet_int() ? t->left : t->right;
    if (c != NULL && c->parent != t)
      reach_error();
    t = c;
  }
}

/* GDSL 1.4 _gdsl_bintree_rotate_left: the right child of t takes its place; returns it, the
 * new root of the subtree (GDSL stores it into the link: *t = rn). */
static tree_t rotate_left(tree_t t) {
  tree_t rn = t->right;
  t->right = rn->left;
  if (rn->left != NULL)
    rn->left->parent = t;
  rn->parent = t->parent;
  rn->left = t;
  t->parent = rn;
  return rn;
}

/* GDSL 1.4 _gdsl_bintree_rotate_right: the left child of t takes its place; returns it, the
 * new root of the subtree (GDSL stores it into the link: *t = ln). */
static tree_t rotate_right(tree_t t) {
  tree_t ln = t->left;
  t->left = ln->right;
  if (ln->right != NULL)
    ln->right->parent = t;
  ln->parent = t->parent;
  ln->right = t;
  t->parent = ln;
  return ln;
}

/* GDSL 1.4 _gdsl_bintree_rotate_left_right: a left rotation of the left child, then a right
 * rotation of t; returns the new root of the subtree. GDSL's _gdsl_bintree_rotate_left
 * (&LEFT (*t)) stores the rotated left subtree into t->left; here that store is explicit.
 * Parent pointers are fixed inside the rotations, as in GDSL (the new left child's parent is
 * t, copied from the old one's). */
static tree_t rotate_left_right(tree_t t) {
  t->left = rotate_left(t->left);
  return rotate_right(t);
}

int main(void) {
  tree_t root = alloc_tree();
  tree_t par = NULL, n = root, r;
  while (__VERIFIER_nondet_int()) { /* any node n of the tree; par is its parent */
    tree_t c = __VERIFIER_nondet_int() ? n->left : n->right;
    if (c == NULL)
      break;
    par = n;
    n = c;
  }
  if (n->left != NULL && n->left->right != NULL) { /* precondition of rotate_left_right */
    r = rotate_left_right(n);
    /* GDSL's *t = r, moved here: r takes n's place under par, or becomes the root */
    if (par == NULL)
      root = r;
    else if (par->left == n)
      par->left = r;
    else
      par->right = r;
  }
  assert_parents(root);
  return 0;
}
