// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the constructed holder of holder_ctor.c freed before it is drained, so the drain loop reads its head field from freed memory (line 22).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct item { struct item *next; int v; };
struct list { struct item *head, *tail; };
void *safe_malloc(size_t n) { void *p = malloc(n); if (!p) abort(); return p; }
struct list *create(void) {
  struct list *l = safe_malloc(sizeof *l);
  l->head = NULL; l->tail = NULL;
  return l;
}
void add(struct list *l) {
  struct item *n = safe_malloc(sizeof *n);
  n->next = NULL;
  if (l->tail) l->tail->next = n; else l->head = n;
  l->tail = n;
}
void destroy(struct list *l) {
  free(l);
  while (l->head) { struct item *t = l->head; l->head = t->next; free(t); }
}
int main() {
  struct list *l = create();
  while (__VERIFIER_nondet_int()) add(l);
  destroy(l);
  return 0;
}
