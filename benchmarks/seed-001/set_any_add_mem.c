/* Seed 001, Table 1 row 2 (Set): "∗ add(x) ∗¬del mem(x)".
 *
 * A set of integers kept in a singly-linked list without duplicates: add inserts at the
 * front unless the value is present, del unlinks and frees the node holding the value, mem
 * searches. Any operations with any arguments, then add(x), then any operations but del:
 * mem(x) must then be true. The proof needs the abstraction to keep the node holding x
 * (T = {x} after one refinement).
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned int);
extern void free(void *);
extern void abort(void);

struct node {
  struct node *next;
  int data;
};

struct node *set = 0;

int mem(int v) {
  struct node *t = set;
  while (t != 0) {
    if (t->data == v) return 1;
    t = t->next;
  }
  return 0;
}

void add(int v) {
  if (mem(v)) return;
  struct node *n = malloc(sizeof(struct node));
  if (!n) abort();
  n->data = v;
  n->next = set;
  set = n;
}

void del(int v) {
  struct node *p = 0;
  struct node *c = set;
  while (c != 0 && c->data != v) {
    p = c;
    c = c->next;
  }
  if (c == 0) return;
  if (p == 0) set = c->next;
  else p->next = c->next;
  free(c);
}

int main(void) {
  while (__VERIFIER_nondet_int()) {
    int v = __VERIFIER_nondet_int();
    int op = __VERIFIER_nondet_int();
    if (op == 0) add(v);
    else if (op == 1) del(v);
    else mem(v);
  }
  int x = __VERIFIER_nondet_int();
  add(x);
  while (__VERIFIER_nondet_int()) {
    int v = __VERIFIER_nondet_int();
    if (__VERIFIER_nondet_int()) add(v);
    else mem(v);
  }
  if (!mem(x)) reach_error();
  return 0;
}
