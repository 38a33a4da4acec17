// check: unreach-call
// expect: TRUE
// Why: __int128 and unsigned __int128 hold 128 bits: 1 << 100 is non-zero, all ones shifted right by 64 is the largest 64-bit value (every check holds).
extern void reach_error(void);
int main(void) {
  __int128 x = (__int128)1 << 100;
  unsigned __int128 y = (unsigned __int128)-1;
  __uint128_t z = y >> 64;
  if (x == 0 || (x >> 100) != 1 || z != 0xffffffffffffffffull || sizeof(x) != 16) reach_error();
  long long lo = (long long)(x >> 40);
  if (lo != (1ll << 60)) reach_error();
  return 0;
}
