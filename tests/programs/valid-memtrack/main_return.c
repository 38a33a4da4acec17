// check: valid-memsafety
// expect: TRUE
// Why: main builds a 3-node list that only its local head points to and frees it before returning (line 32).
#include <stdlib.h>

struct node {
  int data;
  struct node *next;
};

void free_list(struct node *p) {
  while (p != NULL) {
    struct node *n = p->next;
    free(p);
    p = n;
  }
}

int main(void) {
  struct node *head = NULL;
  int i;

  for (i = 0; i < 3; i++) {
    struct node *n = malloc(sizeof(struct node));
    if (n == NULL)
      abort();
    n->data = i;
    n->next = head;
    head = n;
  }

  free_list(head); /* OK: nothing is left when main's locals go away */
  return 0;
}
