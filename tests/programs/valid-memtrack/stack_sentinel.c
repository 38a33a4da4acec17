// check: valid-memsafety
// expect: TRUE
// Why: a singly-linked list hangs off a sentinel node that is a local struct (line 13); cells are appended through a cursor that starts at the sentinel's address and all are freed from `sentinel.next` (line 31).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct cell {
  struct cell *next;
  int weight;
};

int main(void) {
  struct cell sentinel;
  sentinel.next = NULL;
  struct cell *tail = &sentinel;
  while (__VERIFIER_nondet_int()) {
    struct cell *c = malloc(sizeof *c);
    if (!c)
      break;
    c->weight = __VERIFIER_nondet_int();
    c->next = NULL;
    tail->next = c;
    tail = c;
  }
  int heavy = 0;
  for (struct cell *c = sentinel.next; c; c = c->next)
    heavy += c->weight > 10;
  struct cell *c = sentinel.next;
  while (c) {
    struct cell *n = c->next;
    free(c);
    c = n;
  }
  return heavy;
}
