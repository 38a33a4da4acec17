// check: unreach-call
// expect: FALSE(unreach-call)
// Why: in ILP32, unsigned long wraps at 2^32 (line 7), so big is 0 and the error is reached.
extern void reach_error(void);
int main(void) {
  unsigned long big = 4294967295ul;
  big = big + 1;
  if (big == 0) reach_error();
  return 0;
}
