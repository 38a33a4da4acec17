// check: valid-memsafety
// data-model: LP64
// expect: FALSE(valid-memtrack)
// Why: as slot_append.c, but the walk stops one link early when the list has a cell (line 21), so `*pp = c` overwrites the link to the last cell, which is lost.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct cell {
  struct cell *next;
  long data;
};

int main(void) {
  struct cell *head = NULL;
  while (__VERIFIER_nondet_int()) {
    struct cell *c = malloc(sizeof *c);
    if (!c) abort();
    c->next = NULL;
    c->data = 1;
    struct cell **pp = &head;
    while (*pp && (*pp)->next) pp = &(*pp)->next;
    *pp = c;
  }
  while (head) {
    struct cell *t = head->next;
    free(head);
    head = t;
  }
  return 0;
}
