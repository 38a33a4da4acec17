// check: valid-memsafety
// data-model: LP64
// expect: FALSE(valid-memtrack)
// Why: as slot_tree.c, but the insertion walk stops at a node whose left child is missing and so may write `*slot = n` over the link to a subtree (lines 19-21), which is lost.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct tree { struct tree *left, *right; int key; };
struct frame { struct frame *below; struct tree *t; };

int main(void) {
  struct tree *root = NULL;
  while (__VERIFIER_nondet_int()) {
    struct tree *n = malloc(sizeof *n);
    if (!n) abort();
    n->left = n->right = NULL;
    n->key = __VERIFIER_nondet_int();
    struct tree **slot = &root;
    while (*slot && (*slot)->left)
      slot = (n->key < (*slot)->key) ? &(*slot)->left : &(*slot)->right;
    *slot = n;
  }
  struct frame *stack = NULL;
  if (root) {
    stack = malloc(sizeof *stack);
    if (!stack) abort();
    stack->below = NULL;
    stack->t = root;
  }
  while (stack) {
    struct frame *top = stack;
    struct tree *t = top->t;
    stack = top->below;
    free(top);
    if (t->left) {
      struct frame *f = malloc(sizeof *f);
      if (!f) abort();
      f->t = t->left; f->below = stack; stack = f;
    }
    if (t->right) {
      struct frame *f = malloc(sizeof *f);
      if (!f) abort();
      f->t = t->right; f->below = stack; stack = f;
    }
    free(t);
  }
  return 0;
}
