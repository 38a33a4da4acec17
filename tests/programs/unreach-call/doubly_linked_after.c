// check: unreach-call,valid-memsafety
// expect: TRUE
// Why: a list built through next only is made doubly linked afterwards, and every next edge is then checked to have its inverse (line 30); the assertion wants a doubly-linked abstraction, memory safety while the list is built a singly-linked one, so the shape analysis proves the two on their own.
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
    if (p->next->prev != p) /* OK: every prev is the inverse of next */
      reach_error();
  while (h) {
    struct node *t = h->next;
    free(h);
    h = t;
  }
  return 0;
}
