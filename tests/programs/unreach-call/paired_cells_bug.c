// check: unreach-call
// expect: FALSE(unreach-call)
// Why: as paired_cells.c, but the partner of a kind-1 cell may be left out (line 37), so a kind-1 cell may end the list.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void abort(void);

struct cell {
  struct cell *next;
  int kind;
};

struct cell *append(struct cell *last, int kind) {
  struct cell *c = malloc(sizeof(*c));
  if (c == 0)
    abort();
  c->next = 0;
  c->kind = kind;
  last->next = c;
  return c;
}

int main(void) {
  struct cell *head = malloc(sizeof(*head));
  if (head == 0)
    abort();
  head->next = 0;
  head->kind = 0;
  struct cell *last = head;
  while (__VERIFIER_nondet_int()) {
    if (__VERIFIER_nondet_int()) {
      last = append(last, 0);
    } else {
      last = append(last, 1);
      if (__VERIFIER_nondet_int())
        last = append(last, 2);
    }
  }
  for (struct cell *c = head; c != 0; c = c->next) {
    if (c->kind == 1) {
      if (c->next == 0)
        reach_error();
      if (c->next->kind != 2)
        reach_error();
    }
  }
  return 0;
}
