/* Seed 001, beyond Table 1: the twin of map_key_second.c (the bug of map_put_get_bug.c, on
 * the node with the key second).
 * Expected: FALSE (unreach-call)
 */
/* Seed 001 ("Refining Existential Properties in Separation Logic Analyses"), Table 1 row 10
 * (Map): "∗ put(k,v) ∗¬k get(k)".
 *
 * A list-based map (Redis-style key-value store) with unique keys: put(k,v) updates the
 * binding of k in place or pushes a new node; get(k) looks k up and returns true when it is
 * bound (the value found is left in `got`); rem(k) unlinks and frees the binding of k;
 * bound(k) tests for k. Any operations with any arguments, then put(k, v), then any
 * operations whose key differs from k: get(k) must return true (the paper's goal for row 10:
 * "the last operation returns true"). The key is the second int field here; the value
 * refinement tracks it (T = {k}).
 * BUGGY TWIN: the second phase may also use key k (the `key == k` guard is gone), so
 * a run that does rem(k) there makes get(k) return false.
 * Expected: FALSE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void free(void *);
extern void abort(void);

struct node {
  int val;
  int key;
  struct node *next;
};

struct node *map = 0;
int got = 0;

void put(int k, int v) {
  struct node *p = map;
  while (p != 0 && p->key != k) p = p->next;
  if (p != 0) { p->val = v; return; }
  p = malloc(sizeof(struct node));
  if (!p) abort();
  p->key = k;
  p->val = v;
  p->next = map;
  map = p;
}

int get(int k) {
  struct node *p = map;
  while (p != 0 && p->key != k) p = p->next;
  if (p == 0) return 0;
  got = p->val;
  return 1;
}

void rem(int k) {
  struct node *prev = 0;
  struct node *p = map;
  while (p != 0 && p->key != k) { prev = p; p = p->next; }
  if (p == 0) return;
  if (prev == 0) map = p->next;
  else prev->next = p->next;
  free(p);
}

int bound(int k) {
  struct node *p = map;
  while (p != 0 && p->key != k) p = p->next;
  return p != 0;
}

int main(void) {
  while (__VERIFIER_nondet_int()) {
    int op = __VERIFIER_nondet_int();
    int key = __VERIFIER_nondet_int();
    if (op == 0) put(key, __VERIFIER_nondet_int());
    else if (op == 1) get(key);
    else if (op == 2) rem(key);
    else bound(key);
  }
  int k = __VERIFIER_nondet_int();
  int v = __VERIFIER_nondet_int();
  put(k, v);
  while (__VERIFIER_nondet_int()) {
    int op = __VERIFIER_nondet_int();
    int key = __VERIFIER_nondet_int();
    if (op == 0) put(key, __VERIFIER_nondet_int());
    else if (op == 1) get(key);
    else if (op == 2) rem(key);
    else bound(key);
  }
  if (!(get(k) == 1)) reach_error();
  return 0;
}
