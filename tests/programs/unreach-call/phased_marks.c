// check: unreach-call
// expect: TRUE
// Why: the last cell of a list of zeros is marked 1; a walk that stops at the mark must stand on the last cell. After the walk the marks no longer matter: the list is moved onto a stack and freed. The field assertions belong to the precision only from the marking to the check (per-location precision), so the moving and freeing loops see cells the marks do not tell apart.
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
  while (x->next != 0)
    x = x->next;
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
