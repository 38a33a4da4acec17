// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: as block_scope_exit.c, but `p` is not reset (line 18): after the loop it points to the body's `cur`, whose lifetime ended when `break` (line 14) or the last iteration left the block.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int *p = 0;
  int sum = 0;
  int stop = __VERIFIER_nondet_int();
  for (int i = 0; i < 4; i++) {
    int cur = i;
    p = &cur;
    if (*p == stop)
      break;
    sum += *p;
  }
  if (sum >= 0)
    p = p; /* BUG: after the break (line 14), p still points to the dead `cur` */
  return *p > 100;
}
