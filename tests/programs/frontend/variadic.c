// check: valid-memsafety
// expect: TRUE
// Why: a variadic sum reads exactly the arguments passed (ints, a long long and a pointer, line 12-16) through va_list, va_copy included; every access is in bounds.
#include <stdarg.h>
#include <stdlib.h>
extern void reach_error(void);
struct pair { int a; int b; };
long long total(int n, ...) {
  va_list ap, again;
  va_start(ap, n);
  va_copy(again, ap);
  long long s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, int);
  s += va_arg(ap, long long);
  struct pair *p = va_arg(ap, struct pair *);
  s += p->a + p->b + va_arg(again, int);
  va_end(again);
  va_end(ap);
  return s;
}
int main(void) {
  struct pair q = {10, 20};
  if (total(3, 1, 2, 3, 100ll, &q) != 137) abort();
  return 0;
}
