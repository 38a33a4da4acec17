// check: valid-memsafety
// expect: TRUE
// Why: `p` points to the loop body's `cur` while the body runs; `break` (line 14) ends that block, and `p` is set to a live object (line 18) before it is read again.
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
    p = &sum;
  return *p > 100;
}
