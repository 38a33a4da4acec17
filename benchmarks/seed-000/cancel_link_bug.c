// Table 1 (seed 000): cancel_list_link, buggy twin. Checks: preservation of the dll structure (cancellation). Expected: FALSE(unreach-call)
// Buggy line: 61. Bug: node_link (GDSL _gdsl_node_link, called by list_link) sets only the forward link node1->succ = node2; the back link "node2->pred = node1;" is forgotten.
/* Client of list_link (GDSL 1.4 _gdsl_list_link), as in the paper's evaluation (digest §7): it
 * builds two arbitrary acyclic dlls l1, l2 (alloc_list), appends l2 to l1 (list_link), and on
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

/* GDSL 1.4 _gdsl_node_link: node2 becomes node1's successor. */
static void node_link(node_t node1, node_t node2) {
  node1->succ = node2;
  /* BUG: "node2->pred = node1;" is missing: only the forward link is set */
}

/* GDSL 1.4 _gdsl_list_link: appends list_2 after the last node of list_1. */
static void list_link(node_t list_1, node_t list_2) {
  node_t tmp = list_1;
  while (tmp->succ != NULL)
    tmp = tmp->succ;
  node_link(tmp, list_2);
}

int main(void) {
  node_t l1 = alloc_list();
  node_t l2 = alloc_list();
  list_link(l1, l2);
  assert_dll(l1);
  return 0;
}
