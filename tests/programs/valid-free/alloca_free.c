// check: valid-memsafety
// expect: TRUE
// Why: prefix_sums() uses an alloca'd scratch array and a malloc'ed result; the scratch array is left to be released by the return (line 20) and main frees the result.
#include <alloca.h>
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

static int *prefix_sums(int n) {
  int *tmp = alloca(n * sizeof(int));
  int *res = malloc(n * sizeof(int));
  int i;
  if (!res)
    abort();
  for (i = 0; i < n; i++)
    tmp[i] = __VERIFIER_nondet_int() % 100;
  res[0] = tmp[0];
  for (i = 1; i < n; i++)
    res[i] = res[i - 1] + tmp[i];
  /* OK: tmp is stack memory, released when prefix_sums returns */
  return res;
}

int main(void) {
  int *s = prefix_sums(4);
  int last = s[3];
  free(s);
  return last > 1000 ? 1 : 0;
}
