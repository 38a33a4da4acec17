// check: unreach-call
// expect: TRUE
// Why: jobs of arbitrary priority are sorted into three queues by two thresholds (below 3, 3 to 6, 7 and above) and dropped when negative; each queue's walk checks its band (field assertions that order a field against constants).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void free(void *);
extern void abort(void);

struct job {
  int prio;
  struct job *next;
};

int main(void) {
  struct job *input = 0, *low = 0, *mid = 0, *high = 0;
  while (__VERIFIER_nondet_int()) {
    struct job *j = malloc(sizeof(*j));
    if (j == 0)
      abort();
    j->prio = __VERIFIER_nondet_int();
    j->next = input;
    input = j;
  }
  while (input != 0) {
    struct job *j = input;
    input = input->next;
    if (j->prio < 0) {
      free(j);
    } else if (j->prio < 3) {
      j->next = low;
      low = j;
    } else if (j->prio <= 6) {
      j->next = mid;
      mid = j;
    } else {
      j->next = high;
      high = j;
    }
  }
  for (struct job *j = low; j != 0; j = j->next)
    if (!(j->prio >= 0 && j->prio <= 2))
      reach_error();
  for (struct job *j = mid; j != 0; j = j->next)
    if (!(j->prio > 2 && j->prio < 7))
      reach_error();
  for (struct job *j = high; j != 0; j = j->next)
    if (j->prio < 7)
      reach_error();
  return 0;
}
