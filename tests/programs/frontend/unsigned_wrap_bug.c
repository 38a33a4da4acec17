// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the last check (line 40) tests n + 1u < n, which is true exactly when n == 4294967295u because the addition wraps, so reach_error is reachable for that input (a tool using unbounded integers would miss it).
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = 0;
  x--;
  if (x != 4294967295u)
    reach_error();

  unsigned char c = 255;
  c++;
  if (c != 0)
    reach_error();

  unsigned short s = 65535;
  s += 2;
  if (s != 1)
    reach_error();

  unsigned int big = 4000000000u;
  big += 500000000u; /* 4500000000 mod 2^32 */
  if (big != 205032704u)
    reach_error();

  unsigned char b = 200;
  int promoted = b + 100; /* computed in int: no wrap */
  if (promoted != 300)
    reach_error();

  signed char sc = -5;
  short sh = sc * 1000;
  long l = 100000L * 3;
  if (sh != -5000 || l != 300000L)
    reach_error();

  unsigned int n = __VERIFIER_nondet_uint();
  if (n + 1u < n) /* BUG: holds for n == 4294967295u (wrap-around) */
    reach_error();
  return 0;
}
