// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: as ref_param_push.c, but push stores the new cell in the caller's variable only on some runs, losing it on the others (line 24).
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
  if (__VERIFIER_nondet_int())
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
