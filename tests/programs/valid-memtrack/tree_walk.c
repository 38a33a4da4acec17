// check: valid-memsafety
// expect: TRUE
// Why: a binary tree grown at random leaves is freed with an explicit stack of items, each holding one subtree through its `t` link (pushed by a helper); every item's link is non-null (`linked[t]`), no two items hold one node (`shared[t]`), and a popped node is no other node's child (`child[l, r]`), so freeing it dangles nothing and loses nothing.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { struct node *l; struct node *r; };
struct item { struct item *below; struct node *t; };

static struct node *leaf(void) {
  struct node *n = malloc(sizeof(*n));
  if (!n) abort();
  n->l = NULL;
  n->r = NULL;
  return n;
}

static struct item *push(struct item *top, struct node *t) {
  struct item *it = malloc(sizeof(*it));
  if (!it) abort();
  it->below = top;
  it->t = t;
  return it;
}

int main(void) {
  struct node *root = leaf();
  while (__VERIFIER_nondet_int()) {
    struct node *p = root;
    for (;;) {
      if (__VERIFIER_nondet_int()) {
        if (!p->l) {
          p->l = leaf();
          break;
        }
        p = p->l;
      } else {
        if (!p->r) {
          p->r = leaf();
          break;
        }
        p = p->r;
      }
    }
  }
  struct item *top = push(NULL, root);
  while (top) {
    struct item *it = top;
    struct node *t = it->t;
    top = it->below;
    free(it);
    if (t->r)
      top = push(top, t->r);
    if (t->l)
      top = push(top, t->l);
    free(t);
  }
  return 0;
}
