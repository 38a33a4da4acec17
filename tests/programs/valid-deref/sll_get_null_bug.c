// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: the read loop is off by one (line 30): get(head, 4) walks past the last node and returns NULL, which is then dereferenced.
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

  for (i = 0; i <= 4; i++) /* BUG: get(head, 4) returns NULL */
    sum += get(head, i)->data;

  while (head != NULL) {
    struct node *t = head->next;
    free(head);
    head = t;
  }
  return sum == 6 ? 0 : 1;
}
