/* Seed 001, Table 1 row 6 (Multiset): "add(x) add(x) del(x) mem(x)".
 *
 * A multiset of integers kept in a singly-linked list: add always inserts at the front, del unlinks and frees the first node holding the value, mem searches.
 * From the empty multiset: add(x), add(x), del(x), then mem(x) must be true (two copies
 * of x must be remembered: T = {x, x}).
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
  int x = __VERIFIER_nondet_int();
  add(x);
  add(x);
  del(x);
  if (!mem(x)) reach_error();
  return 0;
}
