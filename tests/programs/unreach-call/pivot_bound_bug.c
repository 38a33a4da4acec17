// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the nodes of lo are below the pivot when the split ends, but the pivot is then lowered (line 34), so a node one below the old pivot fails the check: a field's relation to a variable must be forgotten when the variable changes.
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
  pivot--;
  for (struct node *p = lo; p != 0; p = p->next)
    if (!(p->value < pivot))
      reach_error();
  return 0;
}
