// check: unreach-call
// data-model: LP64
// expect: FALSE(unreach-call)
// Why: as callback_walk.c, but `mark` (line 10) skips the last cell, whose flag stays 0 and fails the check at line 22.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct node { struct node *next; int flag; };
static void mark(struct node *n) { if (n->next) n->flag = 1; }
static void walk(struct node *h, void (*visit)(struct node *)) { for (struct node *p = h; p; p = p->next) visit(p); }

int main(void) {
  struct node *h = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof *n);
    if (!n) abort();
    n->flag = 0; n->next = h; h = n;
  }
  walk(h, mark);
  for (struct node *p = h; p; p = p->next)
    if (p->flag != 1) reach_error();
  while (h) { struct node *t = h->next; free(h); h = t; }
  return 0;
}
