// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the do-while was turned into a while loop (line 25) whose body never runs because k starts at 0, so k stays 0 and the final check calls reach_error.
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
  while (k > 0) { k -= 3; } /* BUG: body never runs, k stays 0 */

again:
  j++;
  if (j < 3)
    goto again;

  if (sum != 12 || n != 10 || i != 5 || k != -3 || j != 3)
    reach_error();
  return 0;
}
