// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the holder-struct list of holder_dll_add_last.c whose add_last links the new cell but forgets to make it the holder's last (line 14), so the assertion after the call fails.
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
  if (l->first != n) return;
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
