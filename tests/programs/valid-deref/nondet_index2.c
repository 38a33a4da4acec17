// check: valid-memsafety
// expect: TRUE
// Why: the index is checked against both bounds (line 7) before a[i] is written, and a VLA of nondeterministic length 1..8 is filled in bounds (line 12).
extern int __VERIFIER_nondet_int(void);
int a[10];
int main(void) {
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i >= 10) return 0;
  a[i] = 1;
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 8) return 0;
  int v[n];
  for (int k = 0; k < n; k++) v[k] = k;
  return v[n - 1] + (int)(sizeof v / sizeof v[0]) - n;
}
