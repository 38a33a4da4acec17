// check: unreach-call
// expect: FALSE(unreach-call)
// Why: a stray break after case SQUARE (line 18) stops the intended fallthrough, so SQUARE gives 1 and HEXAGON 3 corners and reach_error is reached for x == 1 or x == 3.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

enum shape { CIRCLE, SQUARE = 4, TRIANGLE, HEXAGON = 10 };

static int corners(enum shape s) {
  int c = 0;
  switch (s) {
  case HEXAGON:
    c += 2;
    /* fall through */
  case SQUARE:
    c += 1;
    break; /* BUG: stops the fallthrough into TRIANGLE */
  case TRIANGLE:
    c += 3;
    break;
  case CIRCLE:
  default:
    c = 0;
    break;
  }
  return c;
}

static int next_id(void) {
  static int id = 100;
  return id++;
}

int main(void) {
  enum shape table[4] = {CIRCLE, SQUARE, TRIANGLE, HEXAGON};
  int expected[4] = {0, 4, 3, 6};
  int i;
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 0 && x <= 3);

  if (TRIANGLE != 5)
    reach_error();
  for (i = 0; i < 4; i++)
    if (x == i && corners(table[i]) != expected[i])
      reach_error();

  int a = next_id();
  int b = next_id();
  if (a != 100 || b != 101)
    reach_error();
  return 0;
}
