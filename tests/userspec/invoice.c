/* invoice.c: a list of invoice lines, each storing its net amount, its tax and its gross
 * amount gross = net + tax. Discounts lower net and gross together; a final walk asserts
 * gross == net + tax for every line. The invariant relates three fields of every node
 * (gross - net - tax == 0): no interval, zone or octagon row expresses it, so the library's
 * default template cannot prove this program; invoice.shape adds the two linear rows:
 *   shapecheck verify tests/userspec/invoice.c --spec tests/userspec/invoice.shape --with-library
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
      p->gross--;
    }
  }
  for (p = list; p != NULL; p = p->next) {
    if (p->gross != p->net + p->tax) reach_error();
  }
  return 0;
}
