// check: valid-memsafety
// expect: FALSE(valid-free)
// Why: prefix_sums() calls free() on its alloca'd scratch array (line 20), which is stack memory, not a heap block.
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
  free(tmp); /* BUG: tmp comes from alloca, not malloc */
  return res;
}

int main(void) {
  int *s = prefix_sums(4);
  int last = s[3];
  free(s);
  return last > 1000 ? 1 : 0;
}
