// check: unreach-call
// expect: FALSE(unreach-call)
// Why: as helper_alloc_field.c, but the second node allocated gets 6 (line 27): the walk finds it.
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
    tail->key = tail == head.next ? 5 : 6;
    tail->next = 0;
  }
  for (struct cell *p = &head; p != 0; p = p->next)
    if (p->key != 5)
      reach_error();
  return 0;
}
