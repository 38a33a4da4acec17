// Builds a doubly-linked list of three nodes with nondeterministic data, appends a fourth,
// checks the back links and frees everything. shapecheck answers FALSE(unreach-call).
// This is the buggy twin of examples/dll_append.c: append() forgets the back link.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct node {
  int data;
  struct node *next;
  struct node *prev;
};

static struct node *new_node(int data) {
  struct node *n = malloc(sizeof *n);
  if (n == NULL)
    exit(1);
  n->data = data;
  n->next = NULL;
  n->prev = NULL;
  return n;
}

static void append(struct node **head, struct node *n) {
  if (*head == NULL) {
    *head = n;
    return;
  }
  struct node *last = *head;
  while (last->next != NULL)
    last = last->next;
  last->next = n;
  // bug: the back link of the appended node is never set
}

static void free_all(struct node *head) {
  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
}

int main(void) {
  struct node *head = NULL;
  for (int i = 0; i < 3; i++) {
    struct node *n = malloc(sizeof *n);
    if (n == NULL) {
      free_all(head);
      return 1;
    }
    n->data = __VERIFIER_nondet_int();
    n->next = NULL;
    n->prev = NULL;
    append(&head, n);
  }
  struct node *tail = malloc(sizeof *tail);
  if (tail == NULL) {
    free_all(head);
    return 1;
  }
  tail->data = 42;
  tail->next = NULL;
  tail->prev = NULL;
  append(&head, tail);
  for (struct node *p = head; p->next != NULL; p = p->next)
    if (p->next->prev != p)
      reach_error();
  free_all(head);
  return 0;
}
