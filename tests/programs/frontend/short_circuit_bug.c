// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the operands of && are swapped (line 25), so p->x is read before the NULL test and the path where p stays NULL dereferences NULL.
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

  if (p->x > 0 && p != NULL) /* BUG: p->x is read before the NULL test */
    hits++;
  if (p == NULL || p->next == NULL)
    hits++;
  hits += (p != NULL) ? (p->x != 0) : 0;

  free(p);
  return hits > 3;
}
