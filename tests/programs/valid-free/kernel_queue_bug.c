// check: valid-memsafety
// expect: FALSE(valid-free)
// Why: the drain loop frees the embedded list node instead of the job that holds it (line 55): a pointer into the middle of the block.
#include <stddef.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct list_head {
  struct list_head *next, *prev;
};

#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

static void list_init(struct list_head *h) {
  h->next = h;
  h->prev = h;
}

static void link_between(struct list_head *n, struct list_head *before, struct list_head *after) {
  after->prev = n;
  n->next = after;
  n->prev = before;
  before->next = n;
}

static void unlink_entry(struct list_head *n) {
  n->next->prev = n->prev;
  n->prev->next = n->next;
}

struct job {
  int id;
  int cost;
  struct list_head queue;
};

int main(void) {
  struct list_head pending;
  list_init(&pending);
  int id = 0;
  while (__VERIFIER_nondet_int()) {
    struct job *j = malloc(sizeof(struct job));
    if (j == NULL)
      break;
    j->id = id++;
    j->cost = __VERIFIER_nondet_int();
    link_between(&j->queue, pending.prev, &pending);
  }
  int total = 0;
  for (struct list_head *p = pending.next; p != &pending; p = p->next)
    total += container_of(p, struct job, queue)->cost;
  while (pending.next != &pending) {
    struct list_head *n = pending.next;
    unlink_entry(n);
    free(n);
  }
  return total == 0;
}
