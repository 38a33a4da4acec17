/* Input of tests/classify.rs: a NULL-terminated singly-linked list built by pushing at the
 * front, then traversed and freed. Expected: sll[f=next] enabled; dll, tree, csll not. */
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned int);
extern void free(void *);

struct node {
  int data;
  struct node *next;
};

int main(void) {
  struct node *head = 0;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof(struct node));
    if (!n) return 1;
    n->data = __VERIFIER_nondet_int();
    n->next = head;
    head = n;
  }
  while (head) {
    struct node *t = head->next;
    free(head);
    head = t;
  }
  return 0;
}
