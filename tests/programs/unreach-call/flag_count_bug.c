// check: unreach-call
// expect: FALSE(unreach-call)
// Why: nodes 1 and 3 are flagged (line 29), so the traversal (3, 2, 1, 0) sees the second flag in its third iteration and calls reach_error.
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
    push(&list, i, i % 2 == 1); /* BUG: nodes 1 and 3 are flagged */

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
