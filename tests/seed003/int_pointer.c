/* Outside the logic of seed 003: a pointer to an int. The PDR engine names the construct and
 * its line and answers UNKNOWN. */
#include <stdlib.h>

int main(void) {
  int *p = malloc(sizeof(int));
  if (p == NULL)
    return 0;
  *p = 1;
  free(p);
  return 0;
}
