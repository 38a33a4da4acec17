// check: unreach-call
// expect: TRUE
// Why: up to ten outer cells, each with an inner list of exactly five cells built by counted loops, are counted back and freed; the whole state space is finite but holds up to sixty live blocks, which the explicit engine explores to the end.
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
    int len = 5;
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
