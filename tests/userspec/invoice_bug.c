/* invoice_bug.c: invoice.c with a bug (marked BUG below): a discount lowers the net amount
 * but not the gross amount, so gross == net + tax fails after one discount. The template
 * engine must not prove it, with or without invoice.shape.
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

typedef struct line {
  int net;
  int tax;
  int gross;
  struct line *next;
} Line;

int main(void) {
  Line *list = NULL;
  Line *p;
  while (__VERIFIER_nondet_int()) {
    int net = __VERIFIER_nondet_int();
    int tax = __VERIFIER_nondet_int();
    if (net < 0 || net > 1000 || tax < 0 || tax > 200) continue;
    p = malloc(sizeof(Line));
    if (p == NULL) return 0;
    p->net = net;
    p->tax = tax;
    p->gross = net + tax;
    p->next = list;
    list = p;
  }
  for (p = list; p != NULL; p = p->next) {
    if (__VERIFIER_nondet_int() && p->net > 0) {
      p->net--;
      /* BUG: the gross amount is not lowered with the net amount */
    }
  }
  for (p = list; p != NULL; p = p->next) {
    if (p->gross != p->net + p->tax) reach_error();
  }
  return 0;
}
