// check: valid-memsafety
// data-model: LP64
// expect: TRUE
// Why: a binary search tree built by insertion through a pointer to the child link to change (`struct tree **slot`, lines 18-21), then destroyed with an explicit stack of frames that each point to a subtree (lines 23-47); every node is freed once its children are pushed.
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
    while (*slot)
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
