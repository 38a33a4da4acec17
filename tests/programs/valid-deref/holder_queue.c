// check: valid-memsafety
// expect: TRUE
// Why: a queue kept in a holder struct on the stack (head and tail fields), copied whole into a second holder and drained through it; every cell is freed once.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct item {
  struct item *next;
  int value;
};

struct queue {
  struct item *head;
  struct item *tail;
  int length;
};


int main(void) {
  struct queue q;
  q.head = NULL;
  q.tail = NULL;
  q.length = 0;
  while (__VERIFIER_nondet_int()) {
    struct item *n = malloc(sizeof *n);
    if (!n)
      abort();
    n->next = NULL;
    n->value = q.length;
    if (q.tail)
      q.tail->next = n;
    else
      q.head = n;
    q.tail = n;
    q.length++;
  }
  struct queue r = q;
  q.head = NULL;
  q.tail = NULL;
  while (r.head) {
    struct item *t = r.head;
    r.head = t->next;
    free(t);
  }
  return 0;
}
