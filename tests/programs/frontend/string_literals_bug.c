// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the concatenation "ab" "cd" holds 'c' at index 2, so the comparison with 'd' on line 6 fails and the error is reached.
extern void reach_error(void);
int main(void) {
  char *s = "ab" "cd";
  if (s[2] != 'd') reach_error();
  return 0;
}
