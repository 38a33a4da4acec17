// check: unreach-call
// expect: TRUE
// Why: bit-fields are laid out as GCC does (units of their declared type; a field that would straddle one moves on) and read back truncated and sign-extended; struct copies and nondeterministic values keep them in range (every check holds).
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct s { char x; int a:20; int b:20; unsigned c:3; _Bool d:1; };
struct t { unsigned lo:4, hi:4; };
int main(void) {
  struct s v = {1, -5, 300000, 9, 1};
  if (v.a != -5 || v.b != 300000 || v.c != 1 || v.d != 1 || v.x != 1) reach_error();
  v.a++;
  v.b = v.a * 2;
  if (v.a != -4 || v.b != -8) reach_error();
  struct s w = v;
  if (w.a != -4 || w.c != 1) reach_error();
  struct t t;
  t.lo = __VERIFIER_nondet_int();
  t.hi = 15;
  if (t.lo > 15 || t.hi != 15) reach_error();
  if (sizeof(struct s) != 8) reach_error();
  unsigned char *p = (unsigned char *)&t;
  t.lo = 3;
  if (*p != 0xf3) reach_error();
  return 0;
}
