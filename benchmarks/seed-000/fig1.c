/* Seed 000 ("Shape Refinement through Explicit Heap Analysis"), Fig. 1(a), made compilable.
 *
 * Builds two acyclic doubly-linked lists of nondeterministic length (alloc_list), joins them
 * and checks the dll invariant along the result (assert_dll). `shapecheck classify` must find
 * a doubly-linked list over (succ, pred) here, and not a tree; `shapecheck verify` must find
 * the program safe. Changes to the paper's listing (digest §6.1): the field is `pred`
 * throughout (the paper's struct says `prev`), allocation is calloc (the paper assumes
 * zero-initialised fields), `*` is __VERIFIER_nondet_int(), and assert is reach_error().
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *calloc(unsigned int, unsigned int);
extern void exit(int);

typedef struct node {
  int data;
  struct node *succ, *pred;
} *List;

List alloc_list(void) {
  List r = (List) calloc(1, sizeof(struct node));
  List p = r;
  if (r == 0) exit(1);
  while (__VERIFIER_nondet_int()) {
    List t = (List) calloc(1, sizeof(struct node));
    if (t == 0) exit(1);
    p->succ = t; t->pred = p;
    p = p->succ;
  }
  return r;
}

void assert_dll(List p) {
  while ((p != 0) && (p->succ != 0)) {
    if (!(p->succ->pred == p)) reach_error();
    p = p->succ;
  }
}

int main(void) {
  List l1 = alloc_list();
  List l2 = alloc_list();

  List p = l1;
  while (p->succ != 0) p = p->succ;
  p->succ = l2; l2->pred = p;

  assert_dll(l1);
  return 0;
}
