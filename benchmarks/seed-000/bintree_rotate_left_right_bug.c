// Table 1 (seed 000): bintree_rotate_left_right, buggy twin. Checks: preservation of acyclicity along left and right. Expected: FALSE(unreach-call)
// Buggy line: 102. Bug: rotate_left_right stores the rotated left subtree into t->right instead of t->left (a left/right slip): t's right subtree is lost, and the right rotation then closes a cycle.
/* Client of rotate_left_right (GDSL 1.4 _gdsl_bintree_rotate_left_right), as in the paper's
 * evaluation (digest §7): it builds an arbitrary binary tree without parent pointers (alloc_tree),
 * picks any node n of it and its parent par by a nondeterministic descent from the root and, if
 * the precondition holds, rotates n and links the rotated subtree in n's place; on return it
 * checks acyclicity along left and right from the root, with assert_acyclic.
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

/* A binary tree node as GDSL 1.4's low-level binary tree, without the parent pointer. */
typedef struct tree {
  int data;
  struct tree *left, *right;
} *tree_t;

static tree_t new_node(void) {
  tree_t t = malloc(sizeof(struct tree));
  if (!t)
    abort();
  t->data = 0;
  t->left = NULL;
  t->right = NULL;
  return t;
}

/* Client: an arbitrary binary tree of at least one node; each new node goes into an empty
 * child slot found by a nondeterministic descent from the root. */
static tree_t alloc_tree(void) {
  tree_t root = new_node();
  while (__VERIFIER_nondet_int()) {
    tree_t x = new_node();
    tree_t p = root;
    for (;;) {
      if (__VERIFIER_nondet_int()) {
        if (p->left == NULL) {
          p->left = x;
          break;
        }
        p = p->left;
      } else {
        if (p->right == NULL) {
          p->right = x;
          break;
        }
        p = p->right;
      }
    }
  }
  return root;
}

/* Client: acyclicity along left and right from root, with pointers only: a nondeterministic
 * downward walk marks one node it passes, chosen nondeterministically, and fails if it comes
 * back to it. A cycle along left and right below the root brings some walk back to a node that
 * some run has marked; in a tree every walk reaches NULL. (Only cycles are looked for, as Table
 * 1 says; sharing is not checked.) */
static void assert_acyclic(tree_t root) {
  tree_t t = root, mark = NULL;
  while (t != NULL) {
    if (t == mark)
      reach_error();
    if (mark == NULL && __VERIFIER_nondet_int())
      mark = t;
    t = __VERIFIER_nondet_int() ? t->left : t->right;
  }
}

/* GDSL 1.4 _gdsl_bintree_rotate_left (without the parent updates): the right child of t takes
 * its place; returns it, the new root of the subtree (GDSL stores it into the link: *t = rn). */
static tree_t rotate_left(tree_t t) {
  tree_t rn = t->right;
  t->right = rn->left;
  rn->left = t;
  return rn;
}

/* GDSL 1.4 _gdsl_bintree_rotate_right (without the parent updates): the left child of t takes
 * its place; returns it, the new root of the subtree (GDSL stores it into the link: *t = ln). */
static tree_t rotate_right(tree_t t) {
  tree_t ln = t->left;
  t->left = ln->right;
  ln->right = t;
  return ln;
}

/* GDSL 1.4 _gdsl_bintree_rotate_left_right: a left rotation of the left child, then a right
 * rotation of t; returns the new root of the subtree. GDSL's _gdsl_bintree_rotate_left
 * (&LEFT (*t)) stores the rotated left subtree into t->left; here that store is explicit. */
static tree_t rotate_left_right(tree_t t) {
  t->right = rotate_left(t->left); /* BUG: t->right for t->left */
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
  assert_acyclic(root);
  return 0;
}
