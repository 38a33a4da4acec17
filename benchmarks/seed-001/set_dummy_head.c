/* Seed 001, beyond Table 1: a set kept behind a dummy head node (the list starts at
 * dummy->next), with del of any value but x and truth tests (`if (p->next)`, `if (!mem(x))`).
 * add(x), then operations on other values: mem(x) must be true. The dummy node must stay a
 * cell of its own (its value is no element), T = {x, &dummy}.
 * Expected: TRUE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void free(void *);
extern void abort(void);
struct node { struct node *next; int val; };
struct node *dummy;
void ins(int v) { struct node *n = malloc(sizeof *n); if (!n) abort(); n->val = v; n->next = dummy->next; dummy->next = n; }
void del(int v) {
  struct node *p = dummy;
  while (p->next && p->next->val != v) p = p->next;
  if (p->next) { struct node *d = p->next; p->next = d->next; free(d); }
}
int mem(int v) { for (struct node *p = dummy->next; p; p = p->next) if (p->val == v) return 1; return 0; }
int main(void) {
  dummy = malloc(sizeof *dummy); if (!dummy) abort(); dummy->next = 0;
  int x = __VERIFIER_nondet_int();
  while (__VERIFIER_nondet_int()) { int v = __VERIFIER_nondet_int(); if (__VERIFIER_nondet_int()) ins(v); else if (v != x) del(v); }
  ins(x);
  while (__VERIFIER_nondet_int()) { int v = __VERIFIER_nondet_int(); if (v == x) continue; if (__VERIFIER_nondet_int()) ins(v); else del(v); }
  if (!mem(x)) reach_error();
  return 0;
}
