// check: valid-memsafety
// expect: TRUE
// Why: a stack kept in the field of a global holder struct, pushed and popped by functions that read and write that field; pop checks for emptiness, and the stack is emptied before main returns.
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
  if (!n)
    return -1;
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
