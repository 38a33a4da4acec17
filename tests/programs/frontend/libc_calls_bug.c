// check: unreach-call
// expect: FALSE(unreach-call)
// Why: printf("x=%d\n", 5) prints 4 characters, so when it succeeds n == 4 and the error on line 8 is reached.
#include <stdio.h>
extern void reach_error(void);
int main(void) {
  int n = printf("x=%d\n", 5);
  if (n == 4) reach_error();
  return 0;
}
