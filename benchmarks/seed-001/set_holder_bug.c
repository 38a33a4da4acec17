/* Seed 001, beyond Table 1: the twin of set_holder.c. Adding a value already present at the
 * head unlinks it instead.
 * Expected: FALSE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void abort(void);
struct node { int data; struct node *next; };
struct set { struct node *head; int size; };
int mem(struct set *s, int v) {
  for (struct node *t = s->head; t != 0; t = t->next)
    if (t->data == v) return 1;
  return 0;
}
void add(struct set *s, int v) {
  if (mem(s, v)) { struct node *h = s->head; if (h && h->data == v) { s->head = h->next; } return; }
  struct node *n = malloc(sizeof(struct node));
  if (!n) abort();
  n->data = v; n->next = s->head; s->head = n;
  s->size = s->size + 1;
}
int main(void) {
  struct set *s = malloc(sizeof(struct set));
  if (!s) abort();
  s->head = 0; s->size = 0;
  int x = __VERIFIER_nondet_int();
  while (__VERIFIER_nondet_int()) add(s, __VERIFIER_nondet_int());
  add(s, x);
  while (__VERIFIER_nondet_int()) add(s, __VERIFIER_nondet_int());
  if (!mem(s, x)) reach_error();
  return 0;
}
