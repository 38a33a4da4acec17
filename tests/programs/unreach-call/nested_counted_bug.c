// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the twin of nested_counted.c whose ninth outer cell gets an inner list of four: the count fails only once fifty-four blocks are live.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }
struct node { struct node *next; struct node *inner; };

static struct node *cell(struct node *next) {
  struct node *n = malloc(sizeof(*n));
  if (!n) abort();
  n->next = next;
  n->inner = NULL;
  return n;
}

int main(void) {
  struct node *head = NULL;
  for (int k = 0; k < 10 && __VERIFIER_nondet_int(); k++) {
    head = cell(head);
    int len = k == 8 ? 4 : 5;
    for (int i = 0; i < len; i++)
      head->inner = cell(head->inner);
  }
  while (head) {
    int count = 0;
    struct node *in = head->inner;
    while (in) {
      struct node *t = in->next;
      free(in);
      in = t;
      count++;
    }
    if (count != 5)
      reach_error();
    struct node *t = head->next;
    free(head);
    head = t;
  }
  return 0;
}
