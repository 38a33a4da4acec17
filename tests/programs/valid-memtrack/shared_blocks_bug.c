// check: valid-memsafety
// data-model: LP64
// expect: FALSE(valid-free)
// Why: as shared_blocks.c, but each cell frees the shared block `hi` as it goes (line 45): the second cell frees it again.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct cell {
  int *lo;
  struct cell *next;
  struct cell *prev;
  int *hi;
};

static struct cell *build(void) {
  int *lo = malloc(sizeof *lo);
  int *hi = malloc(sizeof *hi);
  if (!lo || !hi)
    abort();
  *lo = 0;
  *hi = 100;
  struct cell *head = NULL;
  do {
    struct cell *c = malloc(sizeof *c);
    if (!c)
      abort();
    c->lo = lo;
    c->hi = hi;
    c->prev = NULL;
    c->next = head;
    if (head)
      head->prev = c;
    head = c;
  } while (__VERIFIER_nondet_int());
  return head;
}

int main(void) {
  struct cell *l = build();
  for (struct cell *c = l; c; c = c->next)
    *c->lo = *c->hi - 1;
  free(l->lo);
  while (l) {
    struct cell *n = l->next;
    free(l->hi);
    free(l);
    l = n;
  }
  return 0;
}
