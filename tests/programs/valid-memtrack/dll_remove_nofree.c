// check: valid-memsafety
// expect: TRUE
// Why: removes the node at a nondeterministic position 0..2 from a 3-node doubly linked list, unlinking it via p->prev->next and p->next->prev and freeing it (line 39); the rest is freed at the end.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

typedef struct dnode {
  int val;
  struct dnode *prev, *next;
} DNode;

typedef struct {
  DNode *head;
  DNode *tail;
} List;

static void append(List *l, int v) {
  DNode *n = malloc(sizeof(DNode));
  if (!n)
    abort();
  n->val = v;
  n->next = NULL;
  n->prev = l->tail;
  if (l->tail != NULL)
    l->tail->next = n;
  else
    l->head = n;
  l->tail = n;
}

static void remove_at(List *l, int pos) {
  DNode *p = l->head;
  while (pos-- > 0)
    p = p->next;
  if (p->prev) p->prev->next = p->next; else l->head = p->next;
  if (p->next) p->next->prev = p->prev; else l->tail = p->prev;
  free(p); /* OK: the unlinked node is released */
}

int main(void) {
  List l = {NULL, NULL};
  int i;
  for (i = 0; i < 3; i++)
    append(&l, i);

  int pos = __VERIFIER_nondet_int();
  __VERIFIER_assume(pos >= 0 && pos < 3);
  remove_at(&l, pos);

  while (l.head != NULL) {
    DNode *n = l.head->next;
    free(l.head);
    l.head = n;
  }
  return 0;
}
