// check: unreach-call
// expect: TRUE
// Why: K&R definitions take their parameter types from the declaration list (b defaults to int, p is a pointer); add(2, 3) is 5 and the pointer is written through (line 12).
extern void reach_error(void);
int add(a, b, p)
  long a;
  int *p;
{
  *p = 7;
  return a + b;
}
int main(void) {
  int x = 0;
  if (add(2, 3, &x) != 5 || x != 7) reach_error();
  return 0;
}
