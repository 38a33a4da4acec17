// check: valid-memsafety
// data-model: LP64
// expect: TRUE
// Why: each new cell is appended through a pointer to the link to change (`struct cell **pp`, line 20), which starts at the head variable and walks the `next` fields; `*pp = c` (line 22) writes the head or the last cell's link. The list is freed cell by cell.
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
    while (*pp) pp = &(*pp)->next;
    *pp = c;
  }
  while (head) {
    struct cell *t = head->next;
    free(head);
    head = t;
  }
  return 0;
}
