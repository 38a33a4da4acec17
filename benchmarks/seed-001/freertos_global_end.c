/* Seed 001, beyond Table 1: the FreeRTOS-style sorted cyclic list with its sentinel declared
 * as a global struct variable (as FreeRTOS embeds xListEnd), not allocated. Insertions of
 * values below the sentinel's portMAX_DELAY keep the list sorted; then a walk from the
 * sentinel's successor until the first value portMAX_DELAY must end at the sentinel itself
 * (no item holds that value: an absence, with T = {1000} and the sentinel's address kept).
 * The twin admits an item with the sentinel's value and inserts it before the sentinel.
 * Expected: TRUE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void abort(void);
#define MAXV 1000
struct xItem { int xValue; struct xItem *pxNext; };
struct xItem xEnd;
void insert(struct xItem *n) {
  struct xItem *it = &xEnd;
  while (it->pxNext->xValue <= n->xValue) it = it->pxNext;
  n->pxNext = it->pxNext; it->pxNext = n;
}
int main(void) {
  xEnd.xValue = MAXV; xEnd.pxNext = &xEnd;
  while (__VERIFIER_nondet_int()) {
    int v = __VERIFIER_nondet_int();
    if (v >= MAXV) continue;
    struct xItem *n = malloc(sizeof(struct xItem));
    if (!n) abort();
    n->xValue = v; insert(n);
  }
  struct xItem *p = xEnd.pxNext;
  while (p->xValue != MAXV) p = p->pxNext;
  if (p != &xEnd) reach_error();
  return 0;
}
