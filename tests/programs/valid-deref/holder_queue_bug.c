// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the holder-struct queue of holder_queue.c, drained by reading the next field of a cell after freeing it (line 43).
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
    free(t);
    r.head = t->next;
  }
  return 0;
}
