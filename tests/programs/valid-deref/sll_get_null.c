// check: valid-memsafety
// expect: TRUE
// Why: builds a 4-node list and reads nodes 0..3 through get(), which follows i next-links (loop bound on line 30), so every get() returns a real node; the list is freed at the end.
#include <stdlib.h>

struct node {
  int data;
  struct node *next;
};

static struct node *get(struct node *l, int i) {
  while (i-- > 0)
    l = l->next;
  return l;
}

int main(void) {
  struct node *head = NULL;
  int i, sum = 0;

  for (i = 0; i < 4; i++) {
    struct node *n = malloc(sizeof *n);
    if (!n)
      abort();
    n->data = i;
    n->next = head;
    head = n;
  }

  for (i = 0; i < 4; i++) /* OK: indexes 0..3 only */
    sum += get(head, i)->data;

  while (head != NULL) {
    struct node *t = head->next;
    free(head);
    head = t;
  }
  return sum == 6 ? 0 : 1;
}
