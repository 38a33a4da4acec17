// check: unreach-call
// expect: TRUE
// Why: adjacent string literals concatenate, and hex, octal and simple escapes are decoded once by the front end; every check holds.
extern void reach_error(void);
int main(void) {
  char *s = "ab" "cd";
  char *t = "\x41\101\n\\";
  char *u = "\x4" "1";
  if (s[2] != 'c' || s[4] != 0) reach_error();
  if (t[0] != 'A' || t[1] != 'A' || t[2] != 10 || t[3] != 92 || t[4] != 0) reach_error();
  if (u[0] != 4 || u[1] != '1') reach_error();
  if (sizeof("ab" "cd") != 5) reach_error();
  if ('\377' != -1 || 'ab' != 0x6162) reach_error();
  return 0;
}
