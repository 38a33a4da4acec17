// check: unreach-call
// expect: TRUE
// Why: the first __VERIFIER_error (line 27) needs x > 5 && x < 3 and the others contradict the stored values and the assumptions, so every error path is infeasible.
#include <stdlib.h>

extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

struct cell {
  int val;
  int twice;
};

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 0 && x <= 100);
  __VERIFIER_assume(y >= x);

  struct cell *c = malloc(sizeof *c);
  if (!c)
    abort();
  c->val = x;
  c->twice = x + x;

  if (c->val > 5 && c->val < 3) /* OK: no value satisfies this */
    __VERIFIER_error();
  if (c->twice - c->val != x)
    __VERIFIER_error();
  if (y < c->val)
    __VERIFIER_error();

  free(c);
  return 0;
}
