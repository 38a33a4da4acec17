// check: unreach-call
// expect: TRUE
// Why: each node is allocated by a helper returning `void *` straight into the previous node's next field (the type of the object is that field's), holds 5, and the walk checks it.
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
  struct cell head = {5, 0};
  struct cell *tail = &head;
  while (__VERIFIER_nondet_int()) {
    tail->next = alloc_or_die(sizeof(struct cell));
    tail = tail->next;
    tail->key = 5;
    tail->next = 0;
  }
  for (struct cell *p = &head; p != 0; p = p->next)
    if (p->key != 5)
      reach_error();
  return 0;
}
