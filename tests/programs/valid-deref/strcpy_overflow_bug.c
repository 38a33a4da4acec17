// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: "hello" needs 6 bytes with its terminating zero, but the buffer has 5, so strcpy on line 7 writes past its end.
#include <string.h>
int main(void) {
  char buf[5];
  strcpy(buf, "hello");
  return buf[0];
}
