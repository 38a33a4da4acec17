// check: valid-memsafety
// expect: TRUE
// Why: a list built through a cursor that dies once the list hangs off a second struct's field (`s->node = root`, the one holder): the list cells stay reachable only through the holder's link, which the shape analysis tracks by reachability from the targets of the link field (a root instance); the list is then taken back through the holder (`n = st->node`) and freed cell by cell after the holder.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct T { struct T *next; };
struct S { struct S *next; struct T *node; };
int main(void) {
  struct T *root = malloc(sizeof(*root));
  if (!root) abort();
  root->next = NULL;
  while (__VERIFIER_nondet_int()) {
    struct T *t = malloc(sizeof(*t));
    if (!t) abort();
    t->next = root;
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
    struct T *m = n->next;
    free(n);
    n = m;
  }
  return 0;
}
