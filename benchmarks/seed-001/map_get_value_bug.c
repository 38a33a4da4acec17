/* Buggy twin of map_get_value.c: a later put may be of k itself, overwriting its value.
 * Expected: FALSE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void abort(void);
struct entry { int key; int val; struct entry *next; };
struct entry *map = 0;
struct entry *find(int k) {
  for (struct entry *e = map; e; e = e->next)
    if (e->key == k) return e;
  return 0;
}
void put(int k, int v) {
  struct entry *e = find(k);
  if (e) { e->val = v; return; }
  e = malloc(sizeof(struct entry));
  if (!e) abort();
  e->key = k; e->val = v; e->next = map; map = e;
}
int main(void) {
  int k = __VERIFIER_nondet_int();
  while (__VERIFIER_nondet_int()) put(__VERIFIER_nondet_int(), __VERIFIER_nondet_int());
  put(k, 7);
  while (__VERIFIER_nondet_int()) {
    int j = __VERIFIER_nondet_int();
    put(j, __VERIFIER_nondet_int());
  }
  struct entry *e = find(k);
  if (!e || e->val != 7) reach_error();
  return 0;
}
