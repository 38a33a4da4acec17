// check: unreach-call
// expect: FALSE(unreach-call)
// Why: a 3-bit unsigned field assigned 9 keeps 9 mod 8 = 1, and the 2-bit signed field assigned 3 reads -1 (line 9), so the error is reached.
extern void reach_error(void);
struct s { unsigned a : 3; unsigned b : 5; int c : 2; };
int main(void) {
  struct s v;
  v.a = 9; v.b = 31; v.c = 3;
  if (v.a == 1 && v.b == 31 && v.c == -1) reach_error();
  return 0;
}
