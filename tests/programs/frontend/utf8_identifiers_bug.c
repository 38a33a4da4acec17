// check: unreach-call
// expect: FALSE(unreach-call)
// Why: café is 3, so λ = café * 2 is 6 and the error on line 8 is reached.
extern void reach_error(void);
int main(void) {
  int café = 3;
  int λ = café * 2;
  if (λ == 6) reach_error();
  return 0;
}
