// check: unreach-call
// expect: TRUE
// Why: a statement expression gives 3, typeof copies a's type, _Generic picks int, a compound literal with designators builds the struct, a compiler barrier changes nothing and char arrays take strings (every check holds).
extern void reach_error(void);
struct pt { int x, y; };
int main(void) {
  int a = ({ int t = 1; t + 2; });
  __typeof__(a) b = a;
  int g = _Generic(b, char *: 2, int: 1, default: 0);
  struct pt p = (struct pt){ .y = 4, .x = 5 };
  int *q = (int[]){7, 8, 9};
  char s[] = "abc";
  char t[6] = "hi";
  __asm__ __volatile__("" ::: "memory");
  __asm__("nop");
  if (a != 3 || b != 3 || g != 1 || p.x != 5 || p.y != 4 || q[2] != 9) reach_error();
  if (sizeof s != 4 || s[3] != 0 || s[1] != 'b' || t[1] != 'i' || t[5] != 0) reach_error();
  return 0;
}
