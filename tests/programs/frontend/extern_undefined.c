// check: unreach-call
// expect: TRUE
// Why: g is declared extern and defined later in the file with 42 (line 11), so the error on line 8 is unreachable; h is extern with no definition but never read.
extern void reach_error(void);
extern int g;
extern int h;
int main(void) {
  if (g != 42) reach_error();
  return 0;
}
int g = 42;
