// Table 1 (seed 000): treep_rotate_right. Checks: validity of parent pointers w.r.t. left and right. Expected: TRUE
/* Client of rotate_right (GDSL 1.4 _gdsl_bintree_rotate_right), as in the paper's evaluation
 * (digest §7): it builds an arbitrary binary tree with parent pointers (alloc_tree), picks any
 * node of it (choose_slot) and, if the precondition holds, rotates it; on return it checks
 * validity of parent pointers w.r.t. left and right (each child's parent is the node above it,
 * the root's is NULL), with assert_parents. The tree has an unbounded nondeterministic size and
 * shape; the checking recursion ends on every heap.
 */
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

/* GDSL 1.4's low-level binary tree node (_gdsl_bintree), with an int for the content. */
typedef struct tree {
  int data;
  struct tree *parent, *left, *right;
} *tree_t;

static int nodes; /* nodes allocated so far: bounds the checking recursion */

static tree_t new_node(tree_t parent) {
  tree_t t = malloc(sizeof(struct tree));
  if (!t)
    abort();
  t->data = 0;
  t->parent = parent;
  t->left = NULL;
  t->right = NULL;
  nodes++;
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

/* Client: the link (the root variable or a child field) to a nondeterministically chosen node. */
static tree_t *choose_slot(tree_t *slot) {
  while (__VERIFIER_nondet_int()) {
    tree_t t = *slot;
    if (__VERIFIER_nondet_int()) {
      if (t->left == NULL)
        break;
      slot = &t->left;
    } else {
      if (t->right == NULL)
        break;
      slot = &t->right;
    }
  }
  return slot;
}

/* Client: parent pointers agree with left and right: every node reached from the root has the
 * node above it as parent, and the root has none. The recursion is cut at depth `nodes`
 * (deeper nodes repeat shallower ones), so it ends on every heap. */
static void assert_parents(tree_t t, tree_t parent, int depth) {
  if (t == NULL || depth > nodes)
    return;
  if (t->parent != parent)
    reach_error();
  assert_parents(t->left, t, depth + 1);
  assert_parents(t->right, t, depth + 1);
}

/* GDSL 1.4 _gdsl_bintree_rotate_right: the left child of *t takes its place; *t is the link
 * to the rotated node (the root variable or the parent's child field). */
static tree_t rotate_right(tree_t *t) {
  tree_t ln = (*t)->left;
  (*t)->left = ln->right;
  if (ln->right != NULL)
    ln->right->parent = *t;
  ln->parent = (*t)->parent;
  ln->right = *t;
  (*t)->parent = ln;
  *t = ln;
  return ln;
}

int main(void) {
  tree_t root = alloc_tree();
  tree_t *t = choose_slot(&root);
  if ((*t)->left != NULL) /* precondition of rotate_right */
    rotate_right(t);
  assert_parents(root, NULL, 1);
  return 0;
}
