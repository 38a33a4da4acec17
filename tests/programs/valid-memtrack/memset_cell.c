// check: valid-memsafety
// data-model: LP64
// expect: TRUE
// Why: each cell of an unbounded doubly linked list is zeroed with `memset(n, 0, sizeof *n)` right after `malloc` (line 22), which sets its links to NULL, its counters in an embedded struct to 0 and its name buffer to zeros, before it is linked in; the list is then freed cell by cell. The shape analysis reads the zeroing as a store of zero into every member.
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
    memset(n, 0, sizeof *n);
    n->name[0] = 'a';
    n->st.hits = n->st.misses + 1;
    n->next = head;
    if (head) head->prev = n;
    head = n;
  }
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
