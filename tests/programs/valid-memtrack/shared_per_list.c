// check: valid-memsafety
// data-model: LP64
// expect: TRUE
// Why: two lists are built by the same function (lines 13-28); the cells of each share one counter block of their own (line 23), which is freed once per list (line 31). The two counter blocks are alike but for the cells that surely point to them, which is what keeps them apart in the shape graphs.
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
  destroy(b);
  return 0;
}
