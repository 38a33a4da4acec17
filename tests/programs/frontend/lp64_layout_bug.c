// check: unreach-call
// expect: FALSE(unreach-call)
// data-model: LP64
// Why: in LP64 an unsigned long holds 2^32 (line 7), so the comparison with 0 fails and the error is reached; in ILP32 the constant would have type unsigned long long.
extern void reach_error(void);
int main(void) {
  unsigned long big = 4294967295ul;
  big = big + 1;
  if (big != 0) reach_error();
  return 0;
}
