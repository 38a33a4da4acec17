// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: the twin of hung_list.c hangs the list off the holder past its first cell (`s->node = root->next`): the first cell is lost when `root` dies.
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
  s->node = root->next;
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
