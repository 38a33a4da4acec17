// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the block is also held through a `struct other *`, so its type is ambiguous to a typed memory model; the second node stored gets 8 (line 29) and the walk finds it.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void abort(void);

struct cell {
  int key;
  struct cell *next;
};

struct other {
  long a, b, c;
};

struct other *last_raw;

int main(void) {
  struct cell *head = 0;
  while (__VERIFIER_nondet_int()) {
    void *raw = malloc(sizeof(struct cell));
    if (raw == 0)
      abort();
    struct other *o = raw;
    last_raw = o;
    struct cell *c = raw;
    c->key = head ? 8 : 7;
    c->next = head;
    head = c;
  }
  for (struct cell *p = head; p != 0; p = p->next)
    if (p->key != 7)
      reach_error();
  return 0;
}
