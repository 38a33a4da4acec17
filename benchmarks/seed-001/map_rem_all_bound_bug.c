/* Seed 001, beyond Table 1: the twin of map_rem_all_bound.c. rem stops after the first
 * binding of k, and a second binding (put does not replace) survives.
 * Expected: FALSE (unreach-call)
 */
/* map with duplicates: put pushes, rem removes all bindings */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void free(void *);
extern void abort(void);
struct entry { struct entry *next; int key; int value; };
struct entry *m = 0;
void put(int k, int v) {
  struct entry *e = malloc(sizeof(*e));
  if (!e) abort();
  e->key = k; e->value = v; e->next = m; m = e;
}
void rem(int k) {
  struct entry *prev = 0, *e = m;
  while (e) {
    if (e->key == k) {
      struct entry *d = e; e = e->next;
      if (prev) prev->next = e; else m = e;
      free(d);
      return;
    } else { prev = e; e = e->next; }
  }
}
int bound(int k) {
  struct entry *e = m;
  while (e) { if (e->key == k) return 1; e = e->next; }
  return 0;
}
int main(void) {
  int k = __VERIFIER_nondet_int();
  while (__VERIFIER_nondet_int()) {
    int op = __VERIFIER_nondet_int(), key = __VERIFIER_nondet_int();
    if (op == 0) put(key, __VERIFIER_nondet_int());
    else if (op == 1) rem(key);
    else bound(key);
  }
  rem(k);
  if (bound(k)) reach_error();
  return 0;
}

