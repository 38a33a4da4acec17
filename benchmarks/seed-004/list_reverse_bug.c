/* Seed 004 (Wies, Kuncak, Zee, Podelski, Rinard, "On Verifying Complex Properties using
 * Symbolic Shape Analysis", HAV 2007), Fig. 9 benchmark re-created in C.
 *
 * Buggy twin of list_reverse.c: the head is advanced through the already reversed link.
 * Operation: reverse(h) reverses the list h in place, in one loop, and returns the new head.
 * Contract (contracts/list_reverse.shape): the result is an acyclic list with the same
 * content (two ghosts: an old member is in it, another node is not).
 * Expected: FALSE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct node {
  int data;
  struct node *n;
} *List;

List reverse(List h) {
  List r = NULL;
  while (h != NULL) {
    h->n = r;
    r = h;
    h = h->n; /* BUG: h->n was just overwritten: the rest of the list is lost */
  }
  return r;
}

int main(void) {
  List h = NULL;
  int len = 0;
  while (__VERIFIER_nondet_int()) {
    List t = malloc(sizeof(struct node));
    if (t == NULL)
      abort();
    t->data = len;
    t->n = h;
    h = t;
    len++;
  }
  h = reverse(h);
  /* the content is kept: every node is still there, in increasing order now */
  int count = 0;
  for (List p = h; p != NULL; p = p->n) {
    if (p->data != count) {
      reach_error();
      abort();
    }
    count++;
  }
  if (count != len) {
    reach_error();
    abort();
  }
  while (h != NULL) {
    List t = h;
    h = h->n;
    free(t);
  }
  return 0;
}
