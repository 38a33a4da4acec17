// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: the two heap holders of two_holders.c, but the second list is never cleared: freeing its holder (line 56) loses the last pointers to its cells.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  struct node *prev;
  struct node *next;
  int data;
};

struct list {
  struct node *first;
  struct node *last;
};

static void append(struct list *l, int data) {
  struct node *n = malloc(sizeof *n);
  if (!n)
    abort();
  n->data = data;
  n->next = NULL;
  n->prev = l->last;
  if (l->last)
    l->last->next = n;
  else
    l->first = n;
  l->last = n;
}

static void clear(struct list *l) {
  struct node *c = l->first;
  while (c) {
    struct node *next = c->next;
    free(c);
    c = next;
  }
  l->first = NULL;
  l->last = NULL;
}

int main(void) {
  struct list *a = malloc(sizeof *a);
  struct list *b = malloc(sizeof *b);
  if (!a || !b)
    abort();
  a->first = a->last = NULL;
  b->first = b->last = NULL;
  while (__VERIFIER_nondet_int())
    append(a, 1);
  while (__VERIFIER_nondet_int())
    append(b, 2);
  clear(a);
  free(a);
  free(b);
  return 0;
}
