/* Seed 001, Table 1 row 5 (Set): "∗add(x) all_sorted".
 *
 * Values are inserted in order (a sorted insertion written out in main): the list must be
 * sorted. A universal property: the paper's method cannot prove it (row 5: ⊤, SH^mls finds no invariant for the order); the
 * engine must end with a clear UNKNOWN within its limit, never TRUE on the twin.
 *
 * BUGGY TWIN: the insertion walks past larger values, so the list is sorted downwards.
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
  if (mem(v)) return;
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
    struct node *p = 0;
    struct node *c = lst;
    while (c != 0 && c->data > v) {
      p = c;
      c = c->next;
    }
    struct node *n = malloc(sizeof(struct node));
    if (!n) abort();
    n->data = v;
    n->next = c;
    if (p == 0) lst = n;
    else p->next = n;
  }
  struct node *t = lst;
  while (t != 0 && t->next != 0) {
    if (t->data > t->next->data) reach_error();
    t = t->next;
  }
  return 0;
}
