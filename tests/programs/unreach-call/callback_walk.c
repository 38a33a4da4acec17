// check: unreach-call
// data-model: LP64
// expect: TRUE
// Why: a walker applies the function pointer it is given (line 11) to every cell of an unbounded list; it is only ever given `mark` (line 20), which sets each cell's flag, so the check of every flag afterwards (line 22) holds.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct node { struct node *next; int flag; };
static void mark(struct node *n) { n->flag = 1; }
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
