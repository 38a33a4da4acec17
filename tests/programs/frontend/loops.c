// check: unreach-call
// expect: TRUE
// Why: exercises for with continue/break, while(1) with break, a do-while whose body runs once even though its condition is false (line 25), and a backward goto; all computed values match the checks.
extern void reach_error(void);

int main(void) {
  int i, sum = 0, n = 0, j = 0;

  for (i = 0; i < 10; i++) {
    if (i % 2 != 0)
      continue;
    if (i == 8)
      break;
    sum += i; /* 0 + 2 + 4 + 6 */
  }

  i = 0;
  while (1) {
    if (++i >= 5)
      break;
    n += i; /* 1 + 2 + 3 + 4 */
  }

  int k = 0;
  do { k -= 3; } while (k > 0); /* OK: the body runs once, k == -3 */

again:
  j++;
  if (j < 3)
    goto again;

  if (sum != 12 || n != 10 || i != 5 || k != -3 || j != 3)
    reach_error();
  return 0;
}
