// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the first cell is marked instead of the last, so the walk stops on a cell that has a successor whenever the list has two cells or more.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void free(void *);
extern void abort(void);

struct cell {
  struct cell *next;
  int mark;
};

int main(void) {
  struct cell *head = malloc(sizeof(*head));
  if (head == 0)
    abort();
  head->next = 0;
  head->mark = 0;
  while (__VERIFIER_nondet_int()) {
    struct cell *c = malloc(sizeof(*c));
    if (c == 0)
      abort();
    c->next = head;
    c->mark = 0;
    head = c;
  }
  struct cell *x = head;
  x->mark = 1;

  x = head;
  while (x->mark != 1)
    x = x->next;
  if (x->next != 0)
    reach_error();

  struct cell *stack = 0;
  while (head != 0) {
    struct cell *n = head->next;
    head->next = stack;
    stack = head;
    head = n;
  }
  while (stack != 0) {
    x = stack;
    stack = stack->next;
    free(x);
  }
  return 0;
}
