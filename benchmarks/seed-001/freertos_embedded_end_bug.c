/* Buggy twin of freertos_embedded_end.c: an item with the marker's value is admitted and,
 * the walk stopping before equal values, inserted before the marker.
 * Expected: FALSE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void abort(void);
#define MAXV 1000
struct item { int value; struct item *next; };
struct list { int count; struct item end; };
struct list L;
void insert(int v) {
  struct item *n = malloc(sizeof(struct item));
  if (!n) abort();
  n->value = v;
  struct item *it = &L.end;
  while (it->next->value < v) it = it->next;
  n->next = it->next; it->next = n;
  L.count++;
}
int main(void) {
  L.end.value = MAXV; L.end.next = &L.end; L.count = 0;
  while (__VERIFIER_nondet_int()) {
    int v = __VERIFIER_nondet_int();
    if (v <= MAXV) insert(v);
  }
  struct item *p = L.end.next;
  while (p->value != MAXV) p = p->next;
  if (p != &L.end) reach_error();
  return 0;
}
