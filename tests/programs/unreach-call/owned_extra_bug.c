// check: unreach-call
// expect: FALSE(unreach-call)
// Why: one cell of kind 1 gets a separate extra cell instead of itself, which the walk reports.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct cell {
  struct cell *next;
  struct cell *extra;
  int kind;
};

static struct cell *fresh(void) {
  struct cell *c = malloc(sizeof(struct cell));
  if (!c)
    abort();
  c->next = NULL;
  return c;
}

static void attach(struct cell *c) {
  if (__VERIFIER_nondet_int()) {
    c->kind = 7;
    c->extra = fresh();
  } else {
    c->kind = 1;
    c->extra = __VERIFIER_nondet_int() ? c : fresh();
  }
}

int main(void) {
  struct cell *list = fresh();
  attach(list);
  struct cell *last = list;
  while (__VERIFIER_nondet_int()) {
    last->next = fresh();
    last = last->next;
    attach(last);
  }
  for (struct cell *p = list; p; p = p->next) {
    if (p->kind == 7) {
      if (p->extra == p || p->extra->next != NULL)
        reach_error();
    } else if (p->extra != p) {
      reach_error();
    }
  }
  while (list) {
    struct cell *n = list->next;
    if (list->kind == 7)
      free(list->extra);
    free(list);
    list = n;
  }
  return 0;
}
