// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the guard uses bitwise & instead of && (line 25), which evaluates both operands, so p->x is read even when p is NULL.
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

  if ((p != NULL) & (p->x > 0)) /* BUG: & does not short-circuit */
    hits++;
  if (p == NULL || p->next == NULL)
    hits++;
  hits += (p != NULL) ? (p->x != 0) : 0;

  free(p);
  return hits > 3;
}
