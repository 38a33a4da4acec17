// check: unreach-call
// expect: FALSE(unreach-call)
// Why: (__int128)1 << 100 is non-zero (it would be 0 in 64 bits), so the error on line 7 is reached.
extern void reach_error(void);
int main(void) {
  __int128 x = (__int128)1 << 100;
  if (x != 0) reach_error();
  return 0;
}
