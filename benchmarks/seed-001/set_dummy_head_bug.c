/* Seed 001, beyond Table 1: the twin of set_dummy_head.c. The operations after add(x) may
 * delete x.
 * Expected: FALSE (unreach-call)
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
  while (__VERIFIER_nondet_int()) { int v = __VERIFIER_nondet_int(); if (__VERIFIER_nondet_int()) ins(v); else del(v); }
  if (!mem(x)) reach_error();
  return 0;
}
