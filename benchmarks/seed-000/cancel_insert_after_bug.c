// Table 1 (seed 000): cancel_list_insert_after, buggy twin. Checks: preservation of the dll structure (cancellation). Expected: FALSE(unreach-call)
// Buggy line: 75. Bug: list_insert_after sets only prev->succ = list instead of calling node_link; the back link list->pred = prev is forgotten.
/* Client of list_insert_after (GDSL 1.4 _gdsl_list_insert_after), as in the paper's evaluation
 * (digest §7): it builds an arbitrary acyclic dll l, picks any node prev of it, builds a second
 * dll m and inserts m after prev (list_insert_after), and on return checks that the dll structure
 * is preserved (cancellation): along succ from the head, p->succ->pred == p and p->pred->succ ==
 * p, with assert_dll. The lists have unbounded nondeterministic lengths. The checks are pointer
 * code only (no node counter, no integer bound), correct on every heap, so that a shape analysis
 * over pointer variables and fields can prove them.
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
  node2->pred = node1;
}

/* GDSL 1.4 _gdsl_list_link: appends list_2 after the last node of list_1. */
static void list_link(node_t list_1, node_t list_2) {
  node_t tmp = list_1;
  while (tmp->succ != NULL)
    tmp = tmp->succ;
  node_link(tmp, list_2);
}

/* GDSL 1.4 _gdsl_list_insert_after: inserts the list `list` after the node prev. */
static void list_insert_after(node_t list, node_t prev) {
  node_t prev_succ = prev->succ;
  prev->succ = list; /* BUG: sets only the forward link; list->pred = prev is forgotten */
  if (prev_succ != NULL)
    list_link(list, prev_succ);
}

int main(void) {
  node_t l = alloc_list();
  node_t prev = l;
  node_t m;
  while (prev->succ != NULL && __VERIFIER_nondet_int()) /* any node of l */
    prev = prev->succ;
  m = alloc_list();
  list_insert_after(m, prev);
  assert_dll(l);
  return 0;
}
