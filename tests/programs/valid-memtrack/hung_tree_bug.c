// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: the twin of hung_tree.c takes the tree back past its root (`n = st->node->right`): the root is lost when the stack item is freed.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct T { struct T *left; struct T *right; };
struct S { struct S *next; struct T *node; };
int main(void) {
  struct T *root = malloc(sizeof(*root));
  if (!root) abort();
  root->left = NULL;
  root->right = NULL;
  while (__VERIFIER_nondet_int()) {
    struct T *t = malloc(sizeof(*t));
    if (!t) abort();
    t->left = NULL;
    t->right = root;
    root = t;
  }
  struct S *s = malloc(sizeof(*s));
  if (!s) abort();
  s->next = NULL;
  s->node = root;
  struct S *st = s;
  struct T *n = st->node->right;
  free(st);
  while (n) {
    struct T *m = n->right;
    free(n);
    n = m;
  }
  return 0;
}
