// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the drain loop may go on once the stack is empty (line 26), and its body then reads `top->below` through NULL (line 28).
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
  while (!is_empty(top) || __VERIFIER_nondet_int())
  {
    struct frame *rest = top->below;
    free(top);
    top = rest;
  }
  return 0;
}
