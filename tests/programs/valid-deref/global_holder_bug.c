// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the global holder stack of global_holder.c whose pop forgets the emptiness check, so popping the empty stack reads through NULL (line 29).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  struct node *next;
  int data;
};

struct stack {
  struct node *top;
  int size;
} s;

static void push(int data) {
  struct node *n = malloc(sizeof *n);
  if (!n)
    abort();
  n->data = data;
  n->next = s.top;
  s.top = n;
  s.size++;
}

static int pop(void) {
  struct node *n = s.top;
  int data = n->data;
  s.top = n->next;
  s.size--;
  free(n);
  return data;
}

int main(void) {
  while (__VERIFIER_nondet_int()) {
    if (__VERIFIER_nondet_int())
      push(__VERIFIER_nondet_int());
    else
      pop();
  }
  while (s.top)
    pop();
  return 0;
}
