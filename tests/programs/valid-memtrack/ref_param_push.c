// check: valid-memsafety
// expect: TRUE
// Why: cells are pushed through a reference parameter (`push(&list)`, passed on by `push_two(pp)`), allocated by a `void *` wrapper, and freed one by one.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  struct node *next;
  int key;
};

void *xmalloc(size_t size) {
  void *p = malloc(size);
  if (!p)
    abort();
  return p;
}

void push(struct node **pp) {
  struct node *n = xmalloc(sizeof(struct node));
  n->key = 1;
  n->next = *pp;
  *pp = n;
}

void push_two(struct node **pp) {
  push(pp);
  push(pp);
}

int main(void) {
  struct node *list = NULL;
  push(&list);
  while (__VERIFIER_nondet_int())
    push_two(&list);
  while (list) {
    struct node *next = list->next;
    free(list);
    list = next;
  }
  return 0;
}
