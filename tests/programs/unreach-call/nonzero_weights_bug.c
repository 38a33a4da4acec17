// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the condition replaces only negative inputs (line 21), so a zero input is stored at line 24 and reaches the walk's check.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct job {
  struct job *next;
  int weight;
};

int main(void) {
  struct job *queue = NULL;
  while (__VERIFIER_nondet_int()) {
    struct job *j = malloc(sizeof *j);
    if (!j)
      abort();
    int w = __VERIFIER_nondet_int();
    if (w < 0)
      j->weight = 1;
    else
      j->weight = w; /* BUG: w may be 0 here */
    j->next = queue;
    queue = j;
  }
  while (queue) {
    struct job *next = queue->next;
    if (queue->weight == 0)
      reach_error();
    free(queue);
    queue = next;
  }
  return 0;
}
