/* A circular doubly-linked list with a sentinel node, as Linux's list_head; its spec is
 * ring.shape (`shapecheck verify ring.c --spec ring.shape`).
 *
 * The sentinel s of an empty ring points to itself both ways. The program inserts an
 * unbounded number of nodes after the sentinel, unlinks and frees any one node, inserts a
 * node after any node (or the sentinel), then walks the ring forward until it is back at the
 * sentinel, checking at every node that its successor's predecessor and its predecessor's
 * successor are the node itself (reach_error otherwise), and finally empties the ring and
 * frees it. Pointers only: no data, no counter. Expected: TRUE (unreach-call; also
 * valid-deref and valid-free).
 */
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct node {
  struct node *next;
  struct node *prev;
};

static struct node *ring_new(void) {
  struct node *s = malloc(sizeof(struct node));
  if (!s)
    abort();
  s->next = s;
  s->prev = s;
  return s;
}

/* Links n into the ring after pos. */
static void insert_after(struct node *pos, struct node *n) {
  n->next = pos->next;
  n->prev = pos;
  pos->next->prev = n;
  pos->next = n;
}

/* Unlinks n (not the sentinel) from its ring. */
static void unlink_node(struct node *n) {
  n->prev->next = n->next;
  n->next->prev = n->prev;
}

int main(void) {
  struct node *s = ring_new();
  struct node *p;
  struct node *n;
  while (__VERIFIER_nondet_int()) {
    n = malloc(sizeof(struct node));
    if (!n)
      abort();
    insert_after(s, n);
  }
  /* remove any node of the ring, if it has one */
  p = s->next;
  while (p != s && __VERIFIER_nondet_int())
    p = p->next;
  if (p != s) {
    unlink_node(p);
    free(p);
  }
  /* insert after any node (or the sentinel) */
  p = s;
  while (__VERIFIER_nondet_int())
    p = p->next;
  n = malloc(sizeof(struct node));
  if (!n)
    abort();
  insert_after(p, n);
  /* the invariant, walking forward until back at the sentinel */
  p = s->next;
  while (p != s) {
    if (p->next->prev != p)
      reach_error();
    if (p->prev->next != p)
      reach_error();
    p = p->next;
  }
  /* empty the ring and free everything */
  while (s->next != s) {
    n = s->next;
    unlink_node(n);
    free(n);
  }
  free(s);
  return 0;
}
