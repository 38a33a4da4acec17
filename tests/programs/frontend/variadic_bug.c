// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the loop reads n + 1 variadic arguments (line 10) but only three are passed, so the last va_arg reads past the argument block.
#include <stdarg.h>
extern void reach_error(void);
int sum(int n, ...) {
  va_list ap;
  int s = 0;
  va_start(ap, n);
  for (int i = 0; i <= n; i++) s += va_arg(ap, int);
  va_end(ap);
  return s;
}
int main(void) {
  return sum(3, 1, 2, 3) == 6;
}
