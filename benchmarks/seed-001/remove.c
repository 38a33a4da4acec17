/* Seed 001 ("Refining Existential Properties in Separation Logic Analyses"), the address
 * refinement example of §4.1 (domain SH^rls), made compilable.
 *
 * A list hangs off a dummy head node hd. Any number of nodes are linked in after hd, then
 * a node x, then any number more, so that the heap is list(hd, x) * node(x, n') *
 * list(n', nil), the paper's precondition. remove(x) walks from hd with a trailing pointer
 * p and unlinks x when it meets it, returning 1; it must return 1. The plain list
 * abstraction forgets where x is; one refinement (T = {x}, an address) keeps it. The node
 * data is nondeterministic and plays no part.
 * Expected: TRUE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void free(void *);
extern void abort(void);

struct node {
  int data;
  struct node *next;
};

struct node *hd = 0;

struct node *new_node(int d) {
  struct node *n = malloc(sizeof(struct node));
  if (!n) abort();
  n->data = d;
  n->next = 0;
  return n;
}

/* Link n in right after the dummy head. */
void link_in(struct node *n) {
  n->next = hd->next;
  hd->next = n;
}

int remove(struct node *x) {
  struct node *p;
  struct node *c;
  if (hd == 0 || x == 0 || x == hd) return 0; /* border cases */
  p = hd;
  c = p->next;
  while (c != 0) {
    if (c == x) {
      p->next = c->next;
      return 1;
    }
    p = c;
    c = p->next;
  }
  return 0;
}

int main(void) {
  hd = new_node(0);
  while (__VERIFIER_nondet_int())
    link_in(new_node(__VERIFIER_nondet_int()));
  struct node *x = new_node(__VERIFIER_nondet_int());
  link_in(x);
  while (__VERIFIER_nondet_int())
    link_in(new_node(__VERIFIER_nondet_int()));
  int res = remove(x);
  if (!(res == 1)) reach_error();
  free(x);
  return 0;
}
