// check: valid-memsafety
// expect: TRUE
// Why: strcpy copies "hello" and its terminating zero into a buffer of 6 bytes (line 8); realloc grows a copy that is freed once.
#include <stdlib.h>
#include <string.h>
int main(void) {
  char buf[6];
  strcpy(buf, "hello");
  char *p = malloc(2);
  if (!p) return 0;
  char *q = realloc(p, 16);
  if (!q) { free(p); return 0; }
  strcpy(q, buf);
  free(q);
  return 0;
}
