/* Seed 001 ("Refining Existential Properties in Separation Logic Analyses"), Figure 1, the
 * running example, made compilable; BUGGY TWIN: the node pushed holds x + 1, so the search can miss x.
 *
 * Pushes any number of nodes, then one holding x, then any number more, and searches the
 * list for x: the search must find it (`res == 1`). The plain list abstraction forgets the
 * node holding x; one refinement (T = {x}) keeps it. `*` is __VERIFIER_nondet_int() and
 * `new Node(r, d)` a malloc that cannot fail (SV-COMP's convention for these tasks).
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned int);
extern void abort(void);

struct node {
  struct node *next;
  int data;
};

static struct node *push(struct node *r, int d) {
  struct node *n = malloc(sizeof(struct node));
  if (!n) abort();
  n->next = r;
  n->data = d;
  return n;
}

int main(void) {
  struct node *r = 0;
  while (__VERIFIER_nondet_int())
    r = push(r, __VERIFIER_nondet_int());
  int x = __VERIFIER_nondet_int();
  r = push(r, x + 1);
  while (__VERIFIER_nondet_int())
    r = push(r, __VERIFIER_nondet_int());
  struct node *t = r;
  int res = 0;
  while (res == 0 && t != 0) {
    int d = t->data;
    if (d == x) res = 1;
    t = t->next;
  }
  if (res != 1) reach_error();
  return 0;
}
