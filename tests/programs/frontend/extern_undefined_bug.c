// check: unreach-call
// expect: FALSE(unreach-call)
// Why: g is extern and defined in no declaration of this file, so it may hold any value, 42 included (line 7); it must not be read as 0.
extern void reach_error(void);
extern int g;
int main(void) {
  if (g == 42) reach_error();
  return 0;
}
