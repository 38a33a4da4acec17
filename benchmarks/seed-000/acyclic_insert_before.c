// Table 1 (seed 000): acyclic_list_insert_before. Checks: preservation of acyclicity along succ. Expected: TRUE
/* Client of list_insert_before (GDSL 1.4 _gdsl_list_insert_before), as in the paper's evaluation
 * (digest §7): it builds an arbitrary acyclic dll l, picks any node succ of it, builds a second
 * dll m and inserts m before succ (list_insert_before), and on return checks acyclicity along succ
 * from the head, with assert_acyclic. The lists have unbounded nondeterministic lengths. The
 * checks are pointer code only (no node counter, no integer bound), correct on every heap, so that
 * a shape analysis over pointer variables and fields can prove them.
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

/* GDSL 1.4 _gdsl_list_insert_before: inserts the list `list` before the node succ. */
static void list_insert_before(node_t list, node_t succ) {
  node_t prev_succ = succ->pred;
  if (prev_succ != NULL)
    node_link(prev_succ, list);
  list_link(list, succ);
}

int main(void) {
  node_t l = alloc_list();
  node_t succ = l;
  node_t m;
  while (succ->succ != NULL && __VERIFIER_nondet_int()) /* any node of l */
    succ = succ->succ;
  m = alloc_list();
  list_insert_before(m, succ);
  if (succ == l) /* m now heads the list */
    l = m;
  assert_acyclic(l);
  return 0;
}
