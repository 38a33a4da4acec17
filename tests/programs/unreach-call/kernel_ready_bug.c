// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the second task queued is marked RUNNING instead of READY (line 39), and the scan finds it (line 52).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "kernel_ready.c", 8, "reach_error"); }

struct list_head {
  struct list_head *next, *prev;
};
#define LIST_HEAD(name) struct list_head name = { &(name), &(name) }
#define list_entry(ptr, type, member) ((type *)((char *)(ptr) - (unsigned long)(&((type *)0)->member)))

enum state { SLEEPING, READY, RUNNING };

struct task {
  int pid;
  enum state state;
  struct list_head run;
};

LIST_HEAD(runqueue);

static void list_add(struct list_head *n, struct list_head *head) {
  struct list_head *first = head->next;
  first->prev = n;
  n->next = first;
  n->prev = head;
  head->next = n;
}

static void enqueue(int pid) {
  struct task *t = malloc(sizeof *t);
  if (!t)
    abort();
  t->pid = pid;
  t->state = pid == 2 ? RUNNING : READY;
  list_add(&t->run, &runqueue);
}

int main(void) {
  int pid = 1;
  do
    enqueue(pid++);
  while (__VERIFIER_nondet_int());
  struct list_head *pos;
  for (pos = runqueue.next; pos != &runqueue; pos = pos->next) {
    struct task *t = list_entry(pos, struct task, run);
    if (t->state != READY)
      reach_error();
  }
  return 0;
}
