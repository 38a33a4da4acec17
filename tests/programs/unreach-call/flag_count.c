// check: unreach-call
// expect: TRUE
// Why: only node 1 of a 4-node list is flagged (line 29), so the traversal never counts two flags; the list is deliberately never freed, which must not matter for unreach-call.
#include <stdlib.h>

extern void reach_error(void);

struct item {
  int id;
  _Bool flagged;
  struct item *next;
};

static void push(struct item **head, int id, _Bool flagged) {
  struct item *it = malloc(sizeof *it);
  if (!it)
    abort();
  it->id = id;
  it->flagged = flagged;
  it->next = *head;
  *head = it;
}

int main(void) {
  struct item *list = NULL;
  int i;

  for (i = 0; i < 4; i++)
    push(&list, i, i == 1); /* OK: exactly one flagged node */

  int seen = 0;
  struct item *p = list;
  while (p != NULL) {
    if (p->flagged)
      seen++;
    if (seen >= 2)
      reach_error();
    p = p->next;
  }
  return 0; /* the list is leaked on purpose: irrelevant for unreach-call */
}
