// check: unreach-call
// expect: TRUE
// Why: in ILP32 (the default data model), long and pointers have 4 bytes and 64-bit integers align to 4 inside structs.
extern void reach_error(void);
struct s { char c; long long l; int *p; };
int main(void) {
  if (sizeof(long) != 4 || sizeof(void *) != 4 || sizeof(struct s) != 16) reach_error();
  unsigned long big = 4294967295ul;
  big = big + 1;
  if (big != 0) reach_error();
  return 0;
}
