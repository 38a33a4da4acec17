// check: unreach-call
// expect: FALSE(unreach-call)
// Why: _Generic on an int selects 1 and the compound literal sets y to 4 (line 8), so the error is reached.
extern void reach_error(void);
struct pt { int x, y; };
int main(void) {
  int g = _Generic(3, int: 1, default: 0);
  struct pt p = (struct pt){ .y = 4 };
  if (g == 1 && p.y == 4 && p.x == 0) reach_error();
  return 0;
}
