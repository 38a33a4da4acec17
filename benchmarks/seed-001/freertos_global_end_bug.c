/* Seed 001, beyond Table 1: the twin of freertos_global_end.c. An item may hold the
 * sentinel's value, and insertion stops before the first larger-or-equal value, so the walk
 * stops at that item instead of the sentinel.
 * Expected: FALSE (unreach-call)
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
  while (it->pxNext->xValue < n->xValue) it = it->pxNext;
  n->pxNext = it->pxNext; it->pxNext = n;
}
int main(void) {
  xEnd.xValue = MAXV; xEnd.pxNext = &xEnd;
  while (__VERIFIER_nondet_int()) {
    int v = __VERIFIER_nondet_int();
    if (v > MAXV) continue;
    struct xItem *n = malloc(sizeof(struct xItem));
    if (!n) abort();
    n->xValue = v; insert(n);
  }
  struct xItem *p = xEnd.pxNext;
  while (p->xValue != MAXV) p = p->pxNext;
  if (p != &xEnd) reach_error();
  return 0;
}
