/* Seed 001, beyond Table 1: the sorted set of sorted_set_mem.c with del (an early-exit walk
 * with a trailing pointer, then the cell unlinked and freed). add(x), then adds and dels of
 * other values: mem(x) must be true. SH^sls with T = {x}; when a deleted cell's value goes,
 * what it said about the order of its neighbours stays.
 * Expected: TRUE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void free(void *);
extern void abort(void);
struct node { int val; struct node *next; };
struct node *head = 0;
int mem(int v) {
  struct node *t = head;
  while (t && t->val < v) t = t->next;
  return t && t->val == v;
}
void add(int v) {
  struct node *prev = 0, *t = head;
  while (t && t->val < v) { prev = t; t = t->next; }
  if (t && t->val == v) return;
  struct node *n = malloc(sizeof(struct node));
  if (!n) abort();
  n->val = v; n->next = t;
  if (prev) prev->next = n; else head = n;
}
void del(int v) {
  struct node *prev = 0, *t = head;
  while (t && t->val < v) { prev = t; t = t->next; }
  if (!t || t->val != v) return;
  if (prev) prev->next = t->next; else head = t->next;
  free(t);
}
int main(void) {
  int x = __VERIFIER_nondet_int();
  while (__VERIFIER_nondet_int()) add(__VERIFIER_nondet_int());
  add(x);
  while (__VERIFIER_nondet_int()) {
    int y = __VERIFIER_nondet_int();
    if (y == x) continue;
    if (__VERIFIER_nondet_int()) add(y); else del(y);
  }
  if (!mem(x)) reach_error();
  return 0;
}
