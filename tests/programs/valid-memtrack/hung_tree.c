// check: valid-memsafety
// expect: TRUE
// Why: a right-leaning tree (its `left` fields NULL) built through a cursor that dies once the tree hangs off a stack item (`s->node = root`); the tree stays reachable only through the item's link (a root instance of the tree's reachability), is taken back through the item and freed node by node along `right`.
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
  struct T *n = st->node;
  free(st);
  while (n) {
    struct T *m = n->right;
    free(n);
    n = m;
  }
  return 0;
}
