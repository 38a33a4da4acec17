// check: unreach-call
// expect: TRUE
// Why: every job's weight is an input shown nonzero by the condition before it is stored (line 24), or the default 1, so the walk never finds a zero weight.
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
    if (w == 0)
      j->weight = 1;
    else
      j->weight = w; /* OK: w is nonzero here */
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
