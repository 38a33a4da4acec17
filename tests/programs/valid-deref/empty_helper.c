// check: valid-memsafety
// expect: TRUE
// Why: the stack is popped while the helper `is_empty` (line 13) says it is not empty, so the loop body never dereferences NULL (line 28), and every cell is freed.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct frame {
  struct frame *below;
  int value;
};

static int is_empty(struct frame *top) {
  return top == NULL;
}

int main(void) {
  struct frame *top = NULL;
  while (__VERIFIER_nondet_int()) {
    struct frame *f = malloc(sizeof *f);
    if (!f)
      break;
    f->value = 0;
    f->below = top;
    top = f;
  }
  while (!is_empty(top))
  {
    struct frame *rest = top->below;
    free(top);
    top = rest;
  }
  return 0;
}
