// check: valid-memsafety
// data-model: LP64
// expect: FALSE(valid-memtrack)
// Why: as memset_cell.c, but the new cell is zeroed after it was linked to the list (line 24), so its `next` becomes NULL and the rest of the list is lost on the second iteration.
#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);

struct stats { int hits; int misses; };
struct node {
  struct node *next;
  struct node *prev;
  char name[12];
  struct stats st;
};

int main(void) {
  struct node *head = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof *n);
    if (!n) abort();
    n->next = head;
    if (head) head->prev = n;
    memset(n, 0, sizeof *n);
    head = n;
  }
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
