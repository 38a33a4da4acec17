/* A helper allocates and returns a node; main builds a list with it, walks it, then frees it
 * node by node. Nothing is lost: the node held by the helper's local is returned. Expected:
 * TRUE (valid-memsafety). Its twin helper_alloc_bug.c forgets the last node. */
extern int __VERIFIER_nondet_int(void);
#include <stdlib.h>

struct node {
  int data;
  struct node *n;
};

struct node *alloc_node(struct node *next) {
  struct node *p = malloc(sizeof(struct node));
  if (p == NULL)
    abort();
  p->data = 0;
  p->n = next;
  return p;
}

int main(void) {
  struct node *h = NULL;
  while (__VERIFIER_nondet_int())
    h = alloc_node(h);
  struct node *x = h;
  while (x != NULL)
    x = x->n;
  while (h != NULL) {
    struct node *t = h->n;
    free(h);
    h = t;
  }
  return 0;
}
