/* A full binary tree whose leaves are threaded into a list through `next` (as the leaf level
 * of a B+ tree); its spec is threaded.shape (`shapecheck verify threaded.c --spec
 * threaded.shape`).
 *
 * The tree starts as one leaf. An unbounded number of times, the program descends from the
 * root to any leaf t (par is its parent) and splits it: a new inner node i takes t's place
 * under par (or becomes the root), with t as its left child and a new leaf m as its right
 * one, and m is threaded right after t. It then checks the invariant: walking the thread from
 * the leftmost leaf meets only leaves, and along any descent from the root every inner node
 * has two children and is not on the thread (reach_error otherwise). Pointers only: no data,
 * no counter.
 *
 * Buggy twin of threaded.c: the split threads the new inner node instead of the new leaf.
 * Expected: FALSE(unreach-call).
 */
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct tnode {
  struct tnode *left;
  struct tnode *right;
  struct tnode *next;
};

int main(void) {
  struct tnode *root = calloc(1, sizeof(struct tnode));
  struct tnode *par;
  struct tnode *t;
  struct tnode *m;
  struct tnode *i;
  if (!root)
    abort();
  while (__VERIFIER_nondet_int()) {
    /* any leaf t, and its parent par (NULL at the root) */
    par = NULL;
    t = root;
    while (t->left != NULL) {
      par = t;
      if (__VERIFIER_nondet_int())
        t = t->left;
      else
        t = t->right;
    }
    /* split t: i replaces it, with children t and m */
    i = calloc(1, sizeof(struct tnode));
    m = calloc(1, sizeof(struct tnode));
    if (!i || !m)
      abort();
    if (par == NULL)
      root = i;
    else if (par->left == t)
      par->left = i;
    else
      par->right = i;
    i->left = t;
    i->right = m;
    m->next = t->next;
    t->next = i; /* BUG: should be m */
  }
  /* the thread, from the leftmost leaf, meets only leaves */
  t = root;
  while (t->left != NULL)
    t = t->left;
  while (t != NULL) {
    if (t->left != NULL || t->right != NULL)
      reach_error();
    t = t->next;
  }
  /* along any descent, inner nodes are full and off the thread */
  t = root;
  while (t != NULL) {
    if (t->left == NULL) {
      if (t->right != NULL)
        reach_error();
      t = NULL;
    } else {
      if (t->right == NULL || t->next != NULL)
        reach_error();
      if (__VERIFIER_nondet_int())
        t = t->left;
      else
        t = t->right;
    }
  }
  return 0;
}
