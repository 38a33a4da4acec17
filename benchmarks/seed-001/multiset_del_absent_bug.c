/* Seed 001, beyond Table 1: the twin of multiset_del_absent.c. x may be added twice, and
 * del removes one copy only, so mem(x) can still find the other.
 * Expected: FALSE (unreach-call)
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
  if (__VERIFIER_nondet_int()) add(x);
  while (__VERIFIER_nondet_int()) {
    int v = __VERIFIER_nondet_int();
    if (v == x) continue;
    if (__VERIFIER_nondet_int()) add(v); else del(v);
  }
  del(x);
  if (mem(x)) reach_error();
  return 0;
}
