// check: unreach-call
// expect: FALSE(unreach-call)
// Why: as reversed_pair.c, but the first cell of the pair is marked 4 (line 34), so after the reversal the 6 is followed by a 4.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void free(void *);
extern void abort(void);

struct item {
  struct item *next;
  int mark;
};

struct item *cell(void) {
  struct item *c = malloc(sizeof(*c));
  if (c == 0)
    abort();
  c->next = 0;
  c->mark = 0;
  return c;
}

int main(void) {
  struct item *head = cell();
  struct item *x = head;
  while (__VERIFIER_nondet_int()) {
    x->next = cell();
    x = x->next;
  }
  x = head;
  while (x->next != 0 && __VERIFIER_nondet_int())
    x = x->next;
  x->mark = 4;
  if (x->next == 0)
    x->next = cell();
  x->next->mark = 6;

  struct item *rev = 0;
  x = head;
  while (x != 0) {
    struct item *n = x->next;
    x->next = rev;
    rev = x;
    x = n;
  }

  for (x = rev; x != 0; x = x->next) {
    int m = x->mark;
    int after = 0;
    if (m == 6)
      after = x->next->mark;
    if (m == 6 && after != 5)
      reach_error();
  }
  while (rev != 0) {
    x = rev;
    rev = rev->next;
    free(x);
  }
  return 0;
}
