/* Input of tests/classify.rs: a circular singly-linked list (the last node points back to the
 * head), grown by inserting after the head, then freed. Expected: csll[f=next] enabled, sll
 * not (acyclic[next] fails). */
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned int);
extern void free(void *);

struct cell {
  struct cell *next;
  int data;
};

int main(void) {
  struct cell *head = malloc(sizeof(struct cell));
  if (!head) return 1;
  head->next = head;
  while (__VERIFIER_nondet_int()) {
    struct cell *c = malloc(sizeof(struct cell));
    if (!c) break;
    c->next = head->next;
    head->next = c;
  }
  struct cell *p = head->next;
  while (p != head) {
    struct cell *q = p->next;
    free(p);
    p = q;
  }
  free(head);
  return 0;
}
