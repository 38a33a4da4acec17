// check: unreach-call
// expect: TRUE
// data-model: LP64
// Why: in LP64, long and pointers have 8 bytes and align to 8; struct layouts and sizeof follow (every check holds).
extern void reach_error(void);
struct s { char c; long l; int *p; int i; };
int main(void) {
  if (sizeof(long) != 8 || sizeof(void *) != 8 || sizeof(struct s) != 32) reach_error();
  if (__builtin_offsetof(struct s, p) != 16) reach_error();
  unsigned long big = 4294967296ul;
  if (big == 0) reach_error();
  long d = &((int *)0)[3] - (int *)0;
  if (d != 3) reach_error();
  return 0;
}
