// check: unreach-call
// expect: FALSE(unreach-call)
// Why: as split_by_pivot.c, but a node equal to the pivot goes to lo (line 37), although it is marked ABOVE.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void abort(void);

#define BELOW -1
#define ABOVE 1

struct node {
  int side;
  int value;
  struct node *next;
};

int main(void) {
  int pivot = __VERIFIER_nondet_int();
  struct node *in = 0;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof(*n));
    if (n == 0)
      abort();
    n->value = __VERIFIER_nondet_int();
    if (n->value < pivot)
      n->side = BELOW;
    else
      n->side = ABOVE;
    n->next = in;
    in = n;
  }
  struct node *lo = 0, *hi = 0;
  while (in != 0) {
    struct node *p = in;
    in = in->next;
    if (p->value > pivot) {
      p->next = hi;
      hi = p;
    } else {
      p->next = lo;
      lo = p;
    }
  }
  for (struct node *p = lo; p != 0; p = p->next)
    if (p->side != BELOW)
      reach_error();
  for (struct node *p = hi; p != 0; p = p->next)
    if (p->side != ABOVE)
      reach_error();
  return 0;
}
