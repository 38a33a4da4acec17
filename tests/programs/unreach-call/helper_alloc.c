// check: unreach-call
// expect: TRUE
// Why: nodes come from an allocating helper that returns `void *` (the object's type is known only from the pointer it is cast to); every node holds 7, and the walk checks it.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void abort(void);

struct cell {
  int key;
  struct cell *next;
};

void *alloc_or_die(unsigned long size) {
  void *p = malloc(size);
  if (p == 0)
    abort();
  return p;
}

int main(void) {
  struct cell *head = 0;
  while (__VERIFIER_nondet_int()) {
    struct cell *c = (struct cell *)alloc_or_die(sizeof(struct cell));
    c->key = 7;
    c->next = head;
    head = c;
  }
  for (struct cell *p = head; p != 0; p = p->next)
    if (p->key != 7)
      reach_error();
  return 0;
}
