// check: unreach-call
// expect: FALSE(unreach-call)
// Why: as mode_marks.c, but the mode may be switched off while the list is built (line 28), so a cell marked 7 meets the walk with the mode 0: what a condition showed of the mode must be forgotten when it is written.
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
    if (__VERIFIER_nondet_int())
      mode = 0;
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
