/* Seed 001 ("Refining Existential Properties in Separation Logic Analyses"), Table 1 row 11
 * (Map): "∗ rem(k) bound(k)".
 *
 * A list-based map (Redis-style key-value store) that keeps keys unique: put(k,v) updates
 * the binding of k in place, and pushes a new node only when k is unbound; get(k) returns
 * the value of k or a default; rem(k) unlinks and frees the (single) binding of k; bound(k)
 * tests for k. Any operations with any arguments, then rem(k): bound(k) must return false
 * (the paper's goal for row 11). The key is the first int field, the one the value
 * refinement tracks (T = {k}).
 * BUGGY TWIN: put no longer updates in place (it always pushes, as before a dynamic
 * update that removes duplicate bindings), so after put(k,a) put(k,b) rem(k) k is still bound.
 * Expected: FALSE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void free(void *);
extern void abort(void);

#define DEFAULT 0

struct node {
  int key;
  int val;
  struct node *next;
};

struct node *map = 0;

void put(int k, int v) {
  struct node *p = map;
  while (p != 0 && p->key != k) p = p->next;
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
  if (p == 0) return DEFAULT;
  return p->val;
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
  int k = __VERIFIER_nondet_int();
  while (__VERIFIER_nondet_int()) {
    int op = __VERIFIER_nondet_int();
    int key = __VERIFIER_nondet_int();
    if (op == 0) put(key, __VERIFIER_nondet_int());
    else if (op == 1) get(key);
    else if (op == 2) rem(key);
    else bound(key);
  }
  rem(k);
  if (!(bound(k) == 0)) reach_error();
  return 0;
}
