// check: unreach-call
// expect: TRUE
// Why: exercises the comma operator in a for header and an expression, post/pre-increment inside expressions (line 14), all compound assignment operators and the ternary operator on a nondeterministic value; every computed value matches.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int main(void) {
  int i, j, steps = 0;
  for (i = 0, j = 10; i < j; i += 2, j -= 1)
    steps++; /* (0,10) (2,9) (4,8) (6,7) */

  int a = 5;
  int b = a++ + 10; /* OK: b == 15, a == 6 */
  int c = ++a * 2;  /* a == 7, c == 14 */
  int d = (a += 3, a - 1); /* a == 10, d == 9 */
  int e = a > 9 ? a % 4 : -1;

  int m = 7;
  m *= 3;  /* 21 */
  m -= 1;  /* 20 */
  m /= 4;  /* 5 */
  m %= 3;  /* 2 */
  m <<= 2; /* 8 */
  m |= 1;  /* 9 */
  m ^= 3;  /* 10 */
  m &= 6;  /* 2 */
  m >>= 1; /* 1 */

  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= -100 && x <= 100);
  int absx = x < 0 ? -x : x;

  if (steps != 4 || b != 15 || c != 14 || d != 9 || e != 2 || m != 1)
    reach_error();
  if (absx < 0 || (x < 0 && absx != -x))
    reach_error();
  return 0;
}
