// check: unreach-call
// expect: FALSE(unreach-call)
// Why: as helper_alloc.c, but the second node stored gets 8 (line 25): the walk finds it.
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
    c->key = head ? 8 : 7;
    c->next = head;
    head = c;
  }
  for (struct cell *p = head; p != 0; p = p->next)
    if (p->key != 7)
      reach_error();
  return 0;
}
