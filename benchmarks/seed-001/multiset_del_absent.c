/* Seed 001, beyond Table 1: absence after a removal, which needs an upper bound.
 *
 * A multiset of integers in a singly-linked list: add pushes a node, del unlinks and frees
 * the first node holding the value, mem searches. Operations on values other than x, one
 * add(x), more operations on other values, then del(x): x must be gone. This holds only
 * because x was added once: the segments must record that at most one cell holds x (the
 * upper bounds the engine adds to SH^mls's lower bounds), and after del that none does.
 * The twin may add x twice, and then one copy survives the del.
 * Expected: TRUE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void free(void *);
extern void abort(void);
struct node { struct node *next; int data; };
struct node *lst = 0;
int mem(int v) {
  struct node *t = lst;
  while (t != 0) { if (t->data == v) return 1; t = t->next; }
  return 0;
}
void add(int v) {
  struct node *n = malloc(sizeof(struct node));
  if (!n) abort();
  n->data = v; n->next = lst; lst = n;
}
void del(int v) {
  struct node *p = 0, *c = lst;
  while (c != 0 && c->data != v) { p = c; c = c->next; }
  if (c == 0) return;
  if (p == 0) lst = c->next; else p->next = c->next;
  free(c);
}
int main(void) {
  int x = __VERIFIER_nondet_int();
  while (__VERIFIER_nondet_int()) {
    int v = __VERIFIER_nondet_int();
    if (v == x) continue;
    if (__VERIFIER_nondet_int()) add(v); else del(v);
  }
  add(x);
  while (__VERIFIER_nondet_int()) {
    int v = __VERIFIER_nondet_int();
    if (v == x) continue;
    if (__VERIFIER_nondet_int()) add(v); else del(v);
  }
  del(x);
  if (mem(x)) reach_error();
  return 0;
}
