// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: `goto done` (line 13) leaves the block that declares `cur`, so the read through `p` at `done` (line 18) reaches a dead object.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int *p = 0;
  int r = 0;
  {
    int cur = __VERIFIER_nondet_int();
    p = &cur;
    if (*p > 0)
      goto done;
    r = *p;
  }
  return r;
done:
  return *p;
}
