// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the index is only checked to be non-negative (line 7), so a[10] (and beyond) is written on line 8 past the 10-element global array; the split on the index's value tries an out-of-bounds value first.
extern int __VERIFIER_nondet_int(void);
int a[10];
int main(void) {
  int i = __VERIFIER_nondet_int();
  if (i < 0) return 0;
  a[i] = 1;
  return 0;
}
