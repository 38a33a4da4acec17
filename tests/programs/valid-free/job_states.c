// check: valid-memsafety
// expect: TRUE
// Why: a job is idle or running (its helper is itself) or done (it owns a separate helper cell); the clean-up frees the helper of done jobs only (line 46). Proving it needs one field assertion, state == 2, learned from the condition; the stores of 0 and 1 add nothing the analysis needs.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

enum { IDLE, RUNNING, DONE };

struct job {
  struct job *next;
  struct job *helper;
  int state;
};

static struct job *new_job(struct job *next) {
  struct job *j = malloc(sizeof *j);
  if (!j)
    exit(1);
  j->next = next;
  int pick = __VERIFIER_nondet_int();
  if (pick == 0) {
    j->state = IDLE;
    j->helper = j;
  } else if (pick == 1) {
    j->state = RUNNING;
    j->helper = j;
  } else {
    j->state = DONE;
    j->helper = malloc(sizeof *j->helper);
    if (!j->helper)
      exit(1);
    j->helper->next = NULL;
  }
  return j;
}

int main(void) {
  struct job *jobs = NULL;
  while (__VERIFIER_nondet_int())
    jobs = new_job(jobs);
  while (jobs) {
    struct job *j = jobs;
    jobs = jobs->next;
    if (j->state == DONE)
      free(j->helper);
    free(j);
  }
  return 0;
}
