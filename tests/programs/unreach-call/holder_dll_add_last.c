// check: unreach-call
// expect: TRUE
// Why: a doubly-linked list kept in a holder struct on the stack, appended to through a function taking the holder's address (add_last(&l, n)); the last cell is the one added and every next cell points back.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }
#define assert(c) do { if (!(c)) { reach_error(); } } while (0)
typedef struct node { struct node *next, *prev; int data; } node;
typedef struct list { node *first, *last; } list;
void add_last(list *l, node *n) {
  n->next = NULL; n->prev = l->last;
  if (l->last) l->last->next = n; else l->first = n;
  l->last = n;
}
int main(void) {
  list l; l.first = NULL; l.last = NULL;
  while (__VERIFIER_nondet_int()) {
    node *n = malloc(sizeof(node)); if (!n) abort();
    n->data = 1;
    add_last(&l, n);
    assert(l.last == n);
  }
  for (node *p = l.first; p; p = p->next) assert(p->next == NULL || p->next->prev == p);
  node *p = l.first;
  while (p) { node *t = p->next; free(p); p = t; }
  return 0;
}
