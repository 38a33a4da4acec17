// check: unreach-call
// expect: FALSE(unreach-call)
// Why: contains() descends into the wrong subtree (line 37), so a lookup fails and reach_error is called as soon as a later key differs from the root key.
#include <stdlib.h>

extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "bst_contains.c", 9, __PRETTY_FUNCTION__); }
extern int __VERIFIER_nondet_int(void);

struct tree {
  int key;
  struct tree *left, *right;
};

static struct tree *insert(struct tree *t, int key) {
  if (t == NULL) {
    t = malloc(sizeof(struct tree));
    if (!t)
      abort();
    t->key = key;
    t->left = t->right = NULL;
  } else if (key < t->key) {
    t->left = insert(t->left, key);
  } else {
    t->right = insert(t->right, key);
  }
  return t;
}

static int contains(struct tree *t, int key) {
  if (t == NULL)
    return 0;
  if (t->key == key)
    return 1;
  return contains(key < t->key ? t->right : t->left, key); /* BUG: subtrees swapped */
}

static void destroy(struct tree *t) {
  if (t == NULL)
    return;
  destroy(t->left);
  destroy(t->right);
  free(t);
}

int main(void) {
  int keys[3];
  struct tree *root = NULL;
  int i;

  for (i = 0; i < 3; i++) {
    keys[i] = __VERIFIER_nondet_int();
    root = insert(root, keys[i]);
  }
  for (i = 0; i < 3; i++)
    if (!contains(root, keys[i]))
      reach_error();

  destroy(root);
  return 0;
}
