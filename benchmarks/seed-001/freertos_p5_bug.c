/* Seed 001 ("Refining Existential Properties in Separation Logic Analyses"), Table 1 row 16
 * (FreeRTOS list, Property 5): the items are sorted by value (task priority / wake time).
 *
 * FreeRTOS's scheduler list: a sorted cyclic list with a sentinel end node whose value is
 * portMAX_DELAY, kept here singly linked (next only). Any number of insertions of items with
 * values below portMAX_DELAY (vListInsert) and removals of the first item. Then a walk from
 * end->next around to the sentinel checks that each item's value is at most the next
 * item's (SH^sls, with the priorities as split points).
 * BUGGY TWIN: the insertion walk starts at the first item instead of the sentinel, so a
 * value smaller than the first item's is inserted after it.
 * Expected: FALSE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void free(void *);
extern void abort(void);

#define portMAX_DELAY 1000

struct item {
  int value;
  struct item *next;
};

/* vListInsert: keep the items sorted by value; the walk from the sentinel is guarded by the
 * sentinel's value portMAX_DELAY, which stops it at the end of the list. An item whose
 * value is portMAX_DELAY itself goes last (FreeRTOS special-cases it, the guarded walk
 * would not stop). */
void list_insert(struct item *end, struct item *n) {
  struct item *it;
  int v = n->value;
  if (v == portMAX_DELAY) {
    for (it = end; it->next != end; it = it->next) {}
  } else {
    for (it = end->next; it->next->value <= v; it = it->next) {}
  }
  n->next = it->next;
  it->next = n;
}

int main(void) {
  struct item *end = malloc(sizeof(struct item));
  if (!end) abort();
  end->value = portMAX_DELAY;
  end->next = end;
  while (__VERIFIER_nondet_int()) {
    struct item *n;
    int op = __VERIFIER_nondet_int();
    if (op == 0) {
      /* take the first (smallest-value) item off the list */
      n = end->next;
      if (n != end) {
        end->next = n->next;
        free(n);
      }
      continue;
    }
    int v = __VERIFIER_nondet_int();
    if (v >= portMAX_DELAY) continue;
    n = malloc(sizeof(struct item));
    if (!n) abort();
    n->value = v;
    list_insert(end, n);
  }
  struct item *p;
  for (p = end->next; p->next != end; p = p->next)
    if (!(p->value <= p->next->value)) reach_error();
  return 0;
}
