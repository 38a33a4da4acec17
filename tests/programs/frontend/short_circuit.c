// check: valid-memsafety
// expect: TRUE
// Why: p is NULL or a heap object depending on a nondeterministic branch, and every dereference is guarded by && / || / ?: short-circuit evaluation (line 25); free(p) is fine for NULL too.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct obj {
  int x;
  struct obj *next;
};

int main(void) {
  struct obj *p = NULL;
  int hits = 0;

  if (__VERIFIER_nondet_int()) {
    p = malloc(sizeof *p);
    if (!p)
      abort();
    p->x = __VERIFIER_nondet_int();
    p->next = NULL;
  }

  if (p != NULL && p->x > 0) /* OK: p->x is only read when p != NULL */
    hits++;
  if (p == NULL || p->next == NULL)
    hits++;
  hits += (p != NULL) ? (p->x != 0) : 0;

  free(p);
  return hits > 3;
}
