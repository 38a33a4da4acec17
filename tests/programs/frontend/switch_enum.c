// check: unreach-call
// expect: TRUE
// Why: maps a nondeterministic 0..3 to an enum with explicit values, counts corners with a switch whose cases fall through on purpose (line 17), and checks a static-local id counter; every check holds.
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
    c += 1; /* OK: falls through into TRIANGLE */
    /* fall through */
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
