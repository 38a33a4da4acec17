// Table 1 (seed 000): acyclic_list_remove. Checks: preservation of acyclicity along succ. Expected: TRUE
/* Client of list_remove (GDSL 1.4 _gdsl_list_remove), as in the paper's evaluation (digest §7): it
 * builds an arbitrary acyclic dll l, picks any node of it and unlinks it (list_remove), and on
 * return checks acyclicity along succ from the head, with assert_acyclic. The lists have unbounded
 * nondeterministic lengths. The checks are pointer code only (no node counter, no integer bound),
 * correct on every heap, so that a shape analysis over pointer variables and fields can prove
 * them.
 */
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

/* GDSL 1.4's low-level list node (_gdsl_node), with an int for the content. */
typedef struct node {
  int data;
  struct node *succ, *pred;
} *node_t;

/* Client: an arbitrary acyclic doubly-linked list of at least one node. */
static node_t alloc_list(void) {
  node_t r = malloc(sizeof(struct node));
  node_t p = r;
  if (!r)
    abort();
  r->data = 0;
  r->succ = NULL;
  r->pred = NULL;
  while (__VERIFIER_nondet_int()) {
    node_t t = malloc(sizeof(struct node));
    if (!t)
      abort();
    t->data = 0;
    t->succ = NULL;
    p->succ = t;
    t->pred = p;
    p = t;
  }
  return r;
}

/* Client: acyclicity along succ from head, with pointers only: the walk marks one node it
 * passes, chosen nondeterministically, and fails if it comes back to it. A cycle on the walk
 * brings some node back, and some run marks that node; on an acyclic list every run reaches
 * NULL. */
static void assert_acyclic(node_t head) {
  node_t p = head, mark = NULL;
  while (p != NULL) {
    if (p == mark)
      reach_error();
    if (mark == NULL && __VERIFIER_nondet_int())
      mark = p;
    p = p->succ;
  }
}

/* GDSL 1.4 _gdsl_list_remove: unlinks node from its list. */
static void list_remove(node_t node) {
  node_t succ = node->succ;
  node_t pred = node->pred;
  if (succ != NULL)
    succ->pred = pred;
  if (pred != NULL)
    pred->succ = succ;
  node->pred = NULL;
  node->succ = NULL;
}

int main(void) {
  node_t l = alloc_list();
  node_t node = l;
  while (node->succ != NULL && __VERIFIER_nondet_int()) /* any node of l */
    node = node->succ;
  if (node == l) /* the next node, if any, becomes the head */
    l = l->succ;
  list_remove(node);
  assert_acyclic(l);
  free(node);
  return 0;
}
