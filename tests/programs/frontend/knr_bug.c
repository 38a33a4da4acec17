// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the K&R definition add(a, b) returns a + b, so add(2, 3) == 5 and the error on line 9 is reached.
extern void reach_error(void);
int add(a, b)
  int a, b;
{ return a + b; }
int main(void) {
  if (add(2, 3) == 5) reach_error();
  return 0;
}
