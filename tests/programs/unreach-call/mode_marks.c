// check: unreach-call
// expect: TRUE
// Why: every cell is marked by the mode chosen once at the start (7 when the mode is set, 9 otherwise), and the walk checks the mark the mode implies; the shape analysis keeps apart the graphs where a condition showed the mode nonzero and those where it is 0.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void abort(void);

struct cell {
  int mark;
  struct cell *next;
};

int main(void) {
  int mode = __VERIFIER_nondet_int();
  struct cell *head = 0;
  while (__VERIFIER_nondet_int()) {
    struct cell *c = malloc(sizeof(*c));
    if (c == 0)
      abort();
    if (mode)
      c->mark = 7;
    else
      c->mark = 9;
    c->next = head;
    head = c;
  }
  for (struct cell *c = head; c != 0; c = c->next) {
    if (mode) {
      if (c->mark != 7)
        reach_error();
    } else if (c->mark != 9) {
      reach_error();
    }
  }
  return 0;
}
