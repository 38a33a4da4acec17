/* Seed 001 ("Refining Existential Properties in Separation Logic Analyses"), Table 1 row 15
 * (FreeRTOS list, Property 4): the shape after insertion is correct.
 *
 * FreeRTOS's scheduler list keeps its items sorted by value and ends with a sentinel item
 * whose value is portMAX_DELAY; the insertion walk (vListInsert) is guarded by that value
 * alone: `it->next->value <= v` stops at the sentinel, so the walk never tests for the end
 * of the list. Kept here singly linked (next only) and NULL-terminated after the sentinel.
 * Any number of insertions of items below portMAX_DELAY and removals of the first item
 * (never the sentinel). Every guarded walk must stay on the list, and at the end a search
 * must find the sentinel value: it suffices to remember that the sentinel value is in the
 * list (SH^mls with T = {portMAX_DELAY}, a constant).
 * Expected: TRUE (unreach-call)
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

struct item *head;

/* vListInsert: after the last item whose value is at most v; the walk is guarded by the
 * sentinel's value. */
void list_insert(struct item *n) {
  int v = n->value;
  if (head->value > v) {
    n->next = head;
    head = n;
    return;
  }
  struct item *it = head;
  while (it->next->value <= v) it = it->next;
  n->next = it->next;
  it->next = n;
}

int main(void) {
  head = malloc(sizeof(struct item));
  if (!head) abort();
  head->value = portMAX_DELAY;
  head->next = 0;
  while (__VERIFIER_nondet_int()) {
    if (__VERIFIER_nondet_int()) {
      /* take the first item off the list, unless it is the sentinel */
      struct item *n = head;
      if (n->value != portMAX_DELAY) {
        head = n->next;
        free(n);
      }
      continue;
    }
    int v = __VERIFIER_nondet_int();
    if (v >= portMAX_DELAY) continue;
    struct item *n = malloc(sizeof(struct item));
    if (!n) abort();
    n->value = v;
    list_insert(n);
  }
  struct item *p = head;
  while (p != 0 && p->value != portMAX_DELAY) p = p->next;
  if (p == 0) reach_error();
  return 0;
}
