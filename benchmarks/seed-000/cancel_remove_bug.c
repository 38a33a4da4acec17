// Table 1 (seed 000): cancel_list_remove, buggy twin. Checks: preservation of the dll structure (cancellation). Expected: FALSE(unreach-call)
// Buggy line: 62. Bug: list_remove forgets the back-link update "if (succ != NULL) succ->pred = pred;": the successor still points back to the removed node.
/* Client of list_remove (GDSL 1.4 _gdsl_list_remove), as in the paper's evaluation (digest §7): it
 * builds an arbitrary acyclic dll l, picks any node of it and unlinks it (list_remove), and on
 * return checks that the dll structure is preserved (cancellation): along succ from the head,
 * p->succ->pred == p and p->pred->succ == p, with assert_dll. The lists have unbounded
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

/* Client: the dll structure (cancellation) along the list from head: the successor's
 * predecessor is the node itself, and vice versa. Pointers only: the walk follows succ to its
 * end, which it reaches on every acyclic list. */
static void assert_dll(node_t head) {
  node_t p = head;
  while (p != NULL) {
    if (p->succ != NULL && p->succ->pred != p)
      reach_error();
    if (p->pred != NULL && p->pred->succ != p)
      reach_error();
    p = p->succ;
  }
}

/* GDSL 1.4 _gdsl_list_remove: unlinks node from its list. */
static void list_remove(node_t node) {
  node_t succ = node->succ;
  node_t pred = node->pred;
  /* BUG: "if (succ != NULL) succ->pred = pred;" is missing: succ still points back to node */
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
  assert_dll(l);
  free(node);
  return 0;
}
