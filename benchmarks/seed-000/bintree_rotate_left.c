// Table 1 (seed 000): bintree_rotate_left. Checks: preservation of acyclicity along left and right. Expected: TRUE
/* Client of rotate_left (GDSL 1.4 _gdsl_bintree_rotate_left), as in the paper's evaluation
 * (digest §7): it builds an arbitrary binary tree without parent pointers (alloc_tree), picks
 * any node of it (choose_slot) and, if the precondition holds, rotates it; on return it checks
 * acyclicity along left and right from the root, with assert_acyclic. The tree has an unbounded
 * nondeterministic size and shape; the checking recursion ends on every heap.
 */
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

/* A binary tree node as GDSL 1.4's low-level binary tree, without the parent pointer. */
typedef struct tree {
  int data;
  struct tree *left, *right;
} *tree_t;

static int nodes; /* nodes allocated so far: bounds the checking recursion */

static tree_t new_node(void) {
  tree_t t = malloc(sizeof(struct tree));
  if (!t)
    abort();
  t->data = 0;
  t->left = NULL;
  t->right = NULL;
  nodes++;
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

/* Client: acyclicity along left and right below t, the root of a tree of `nodes` nodes at
 * most: a downward path with more than `nodes` nodes revisits a node. The recursion depth is
 * bounded by `nodes` + 1, so it ends on every heap. */
static void assert_acyclic(tree_t t, int depth) {
  if (t == NULL)
    return;
  if (depth > nodes)
    reach_error();
  assert_acyclic(t->left, depth + 1);
  assert_acyclic(t->right, depth + 1);
}

/* GDSL 1.4 _gdsl_bintree_rotate_left (without the parent updates): the right child of *t
 * takes its place; *t is the link to the rotated node. */
static tree_t rotate_left(tree_t *t) {
  tree_t rn = (*t)->right;
  (*t)->right = rn->left;
  rn->left = *t;
  *t = rn;
  return rn;
}

int main(void) {
  tree_t root = alloc_tree();
  tree_t *t = choose_slot(&root);
  if ((*t)->right != NULL) /* precondition of rotate_left */
    rotate_left(t);
  assert_acyclic(root, 1);
  return 0;
}
