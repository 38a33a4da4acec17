// check: unreach-call
// expect: TRUE
// Why: the split keeps the nodes below the pivot in lo and the walk checks them against the unchanged pivot (the shape analysis relates the field to the variable).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void abort(void);

struct node {
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
    n->next = in;
    in = n;
  }
  struct node *lo = 0;
  while (in != 0) {
    struct node *p = in;
    in = in->next;
    if (p->value < pivot) {
      p->next = lo;
      lo = p;
    }
  }
  for (struct node *p = lo; p != 0; p = p->next)
    if (!(p->value < pivot))
      reach_error();
  return 0;
}
