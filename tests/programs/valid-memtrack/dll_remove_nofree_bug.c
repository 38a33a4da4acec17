// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: remove_at() unlinks the chosen node but never frees it (line 39), so it becomes unreachable when remove_at returns.
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
  /* BUG: p is unlinked but not freed, lost when remove_at returns */
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
