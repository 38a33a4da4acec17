// check: unreach-call
// expect: FALSE(unreach-call)
// Why: as stack_of_cells.c, but an item collects the successor of the cell (line 36), which is NULL for the last one.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "stack_of_cells.c", 3, "reach_error"); }

struct cell {
  struct cell *next;
  int mark;
};

struct item {
  struct item *below;
  struct cell *cell;
};

int main(void) {
  struct cell *head = NULL;
  while (__VERIFIER_nondet_int()) {
    struct cell *c = malloc(sizeof *c);
    if (!c)
      abort();
    c->next = head;
    c->mark = 0;
    head = c;
  }
  struct item *top = NULL;
  for (struct cell *cur = head; cur; cur = cur->next) {
    if (__VERIFIER_nondet_int()) {
      struct item *it = malloc(sizeof *it);
      if (!it)
        abort();
      it->cell = cur->next;
      it->below = top;
      top = it;
    }
  }
  while (top) {
    struct item *it = top;
    top = top->below;
    if (!it->cell)
      reach_error();
    it->cell->mark = 1;
    free(it);
  }
  return 0;
}
