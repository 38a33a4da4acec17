// check: valid-memsafety
// data-model: LP64
// expect: FALSE(valid-memtrack)
// Why: as shared_per_list.c, but the cells of the second list are freed without its counter block (lines 47-51 skip `destroy`), and the block, reachable only through them, is lost.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct cell {
  struct cell *next;
  int *count;
};

static struct cell *make(void) {
  int *count = malloc(sizeof *count);
  if (!count)
    abort();
  *count = 0;
  struct cell *l = NULL;
  do {
    struct cell *c = malloc(sizeof *c);
    if (!c)
      abort();
    c->count = count;
    c->next = l;
    l = c;
  } while (__VERIFIER_nondet_int());
  return l;
}

static void destroy(struct cell *l) {
  free(l->count);
  while (l) {
    struct cell *n = l->next;
    free(l);
    l = n;
  }
}

int main(void) {
  struct cell *a = make();
  struct cell *b = make();
  for (struct cell *c = a; c; c = c->next)
    (*c->count)++;
  for (struct cell *c = b; c; c = c->next)
    (*c->count)--;
  destroy(a);
  while (b) {
    struct cell *n = b->next;
    free(b);
    b = n;
  }
  return 0;
}
