// check: unreach-call,valid-memsafety
// expect: FALSE(unreach-call)
// Why: the loop that sets prev forgets to advance q, so every prev is NULL and the check of the second cell fails (line 30).
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
    /* BUG: q is never advanced */
    p = p->next;
  }
  for (p = h; p && p->next; p = p->next)
    if (p->next->prev != p) /* BUG: prev is NULL */
      reach_error();
  while (h) {
    struct node *t = h->next;
    free(h);
    h = t;
  }
  return 0;
}
