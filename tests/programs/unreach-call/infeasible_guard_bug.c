// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the guard on line 27 is x > 5 && x < 7, which holds for x == 6, so __VERIFIER_error is reachable for that single input.
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

  if (c->val > 5 && c->val < 7) /* BUG: feasible for x == 6 */
    __VERIFIER_error();
  if (c->twice - c->val != x)
    __VERIFIER_error();
  if (y < c->val)
    __VERIFIER_error();

  free(c);
  return 0;
}
