// check: unreach-call
// expect: TRUE
// Why: identifiers may contain UTF-8 letters (and `$`, a GCC extension); café and λ are distinct variables, so the check on line 9 holds.
extern void reach_error(void);
int main(void) {
  int café = 3;
  int λ = café * 2;
  int a$b = λ + 1;
  if (λ != 6 || a$b != 7) reach_error();
  return 0;
}
