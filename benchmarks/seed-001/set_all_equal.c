/* Seed 001, Table 1 row 4 (Set): "∗add(x) all_equal_to_x" (only add(x), repeated).
 * Here add inserts without the membership test, so the list grows with copies of x.
 *
 * The set only ever gets x added: every node must hold x. A universal property: the paper's method cannot prove it (row 4: ∞, it adds x to T at every refinement); the
 * engine must end with a clear UNKNOWN within its limit, never TRUE on the twin.
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
  while (__VERIFIER_nondet_int()) add(x);
  struct node *t = lst;
  while (t != 0) {
    if (t->data != x) reach_error();
    t = t->next;
  }
  return 0;
}
