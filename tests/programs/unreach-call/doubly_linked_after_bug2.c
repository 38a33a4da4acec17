// check: unreach-call,valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: the list is correct but the loop that frees it frees every other cell only, so the cell after a freed one is lost (line 34).
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void *malloc(unsigned long);
extern void free(void *);
void reach_error(void) { abort(); }

struct node {
  struct node *next, *prev;
};

int main(void) {
  struct node *h = 0;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof(struct node));
    if (!n)
      abort();
    n->next = h;
    h = n;
  }
  struct node *p = h, *q = 0;
  while (p) {
    p->prev = q;
    q = p;
    p = p->next;
  }
  for (p = h; p && p->next; p = p->next)
    if (p->next->prev != p) 
      reach_error();
  while (h) {
    struct node *t = h->next ? h->next->next : 0; /* BUG: skips a cell */
    free(h);
    h = t;
  }
  return 0;
}
