// check: unreach-call
// expect: TRUE
// Why: printf, fprintf(stderr), puts and the string functions come from shapecheck's C library: printf returns the number of characters it prints (at least 16 here, line 10) or a negative value, and the strings hold what was copied.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int n = printf("x=%d s=%s %5u\n", x, "abc", 7u);
  if (n >= 0 && n < 16) reach_error();
  fprintf(stderr, "err %ld\n", 3L);
  char buf[8];
  strcpy(buf, "hello");
  if (strlen(buf) != 5 || strcmp(buf, "hello") != 0 || strncmp(buf, "help", 3) != 0) reach_error();
  if (strchr(buf, 'l') != buf + 2 || strrchr(buf, 'l') != buf + 3 || atoi("-42") != -42) reach_error();
  char *d = strdup(buf);
  if (d) {
    if (d[4] != 'o' || memcmp(d, buf, 6) != 0) reach_error();
    free(d);
  }
  puts("done");
  return 0;
}
