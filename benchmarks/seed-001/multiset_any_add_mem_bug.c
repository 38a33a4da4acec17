/* Seed 001, Table 1 row 7 (Multiset): "∗ add(x) ∗¬del mem(x)".
 *
 * A multiset of integers kept in a singly-linked list: add always inserts at the front, del unlinks and frees the first node holding the value, mem searches.
 * Any operations, add(x), then any operations but del: mem(x) must be true.
 *
 * BUGGY TWIN: the operations after add(x) include del, so del(x) can remove it.
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

struct node *lst = 0;

int mem(int v) {
  struct node *t = lst;
  while (t != 0) {
    if (t->data == v) return 1;
    t = t->next;
  }
  return 0;
}

void add(int v) {
  struct node *n = malloc(sizeof(struct node));
  if (!n) abort();
  n->data = v;
  n->next = lst;
  lst = n;
}

void del(int v) {
  struct node *p = 0;
  struct node *c = lst;
  while (c != 0 && c->data != v) {
    p = c;
    c = c->next;
  }
  if (c == 0) return;
  if (p == 0) lst = c->next;
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
    int op = __VERIFIER_nondet_int();
    if (op == 0) add(v);
    else if (op == 1) del(v);
    else mem(v);
  }
  if (!mem(x)) reach_error();
  return 0;
}
